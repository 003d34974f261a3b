import { Module } from '@nestjs/common';
import { CoinsModule } from '../../money-movement/coins/coins.module';
import { ContactBookController } from './contact-book.controller';
import { ContactBookRepository } from './contact-book.repository';
import { ContactBookService } from './contact-book.service';

@Module({ imports: [CoinsModule], controllers: [ContactBookController], providers: [ContactBookService, ContactBookRepository] })
export class ContactBookModule {}
