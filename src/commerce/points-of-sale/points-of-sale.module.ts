import { Module } from '@nestjs/common';
import { PointsOfSaleController } from './points-of-sale.controller';
import { PointsOfSaleRepository } from './points-of-sale.repository';
import { PointsOfSaleService } from './points-of-sale.service';

@Module({ controllers: [PointsOfSaleController], providers: [PointsOfSaleService, PointsOfSaleRepository], exports: [PointsOfSaleService] })
export class PointsOfSaleModule {}
