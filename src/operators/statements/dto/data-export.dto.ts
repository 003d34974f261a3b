import { OmitType } from '@nestjs/swagger';
import { TransactionFilterDto } from '../../../money-movement/transactions/dto/transaction.dto';
import { ApiDateTime, ApiEnum, ApiExample, ApiUuid } from '../../../platform/common/dto-fields';

/**
 * What to export: the history filter of `POST /transactions/view` (the family's client sends the filter of the screen
 * it exports, at the top level). `createdAtTo` defaults to the moment the export starts.
 */
export class DataExportRequestDto extends OmitType(TransactionFilterDto, ['orgIds', 'issuerIds', 'paymentIdentifiers']) {}

export class DataExportStartedDto {
  status: 'ok';
  message: string;
  /** The export's id: ask `GET /data-export/info/{id}` for its state. */
  @ApiUuid()
  id: string;
}

export class DataExportInfoDetailsDto {
  /** `COMPLETE`: the file can be fetched (an export is written as it is fetched, so it is complete at once). */
  @ApiEnum(['COMPLETE'])
  exportStatus: 'COMPLETE';
  /** The file's id (the export's). */
  @ApiUuid()
  fileId: string;
  /** Where to fetch the file, a CSV (with the caller's token). */
  @ApiExample('/api/v1/data-export/0b6c4cf4-6f0e-4b7a-9a55-1f1f2a3b4c5d/file')
  fileLink: string;
  @ApiDateTime()
  createdAt: string;
}

export class DataExportInfoDto {
  status: 'ok';
  message: string;
  exportInfo: DataExportInfoDetailsDto;
}
