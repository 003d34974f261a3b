import { Module } from '@nestjs/common';
import { ContactBookController } from './contact-book.controller';
import { ContactBookRepository } from './contact-book.repository';
import { ContactBookService } from './contact-book.service';

@Module({ controllers: [ContactBookController], providers: [ContactBookService, ContactBookRepository] })
export class ContactBookModule {}
