import { ApiProperty } from '@nestjs/swagger';
import { PageDto } from '../../common/paging.dto';
import { ApiDateTime } from '../../common/dto-fields';

export class UserActionDto {
  id: string;
  action: string;
  login: string | null;
  address: string | null;
  actorUserId: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true })
  details: Record<string, unknown>;
  @ApiDateTime()
  createdAt: string;
}

export class UserActionPageDto extends PageDto {
  records: UserActionDto[];
}
