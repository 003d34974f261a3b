import { Module } from '@nestjs/common';
import { OrganizationViewsController } from './organization-views.controller';
import { OrganizationViewsService } from './organization-views.service';

@Module({ controllers: [OrganizationViewsController], providers: [OrganizationViewsService] })
export class OrganizationViewsModule {}
