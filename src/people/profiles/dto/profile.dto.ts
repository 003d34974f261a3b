import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { ROLES } from '../../../platform/access/permissions';
import { IDENTIFICATION_STATUSES, ORGANIZATION_TYPES } from '../../../platform/organizations/organization.types';
import { OrganizationRefDto } from '../../../platform/organizations/dto/organization.dto';
import { ContactDto } from '../../../platform/users/dto/users.dto';
import { ApiEnum, ApiOptionalEnum, ApiUuid, Nested } from '../../../platform/common/dto-fields';

/** A login one can be reached at: an e-mail address or a phone number (an optional + and 6 to 15 digits). */
export const CONTACT_LOGIN = /^(?:[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|\+?[0-9]{6,15})$/;

export class ProfileUserDto {
  @ApiUuid()
  id: string;
  login: string;
  name: string;
  @ApiEnum(['active', 'on_hold'])
  status: string;
  /** The language of the user's messages (issue 46), as set with `PATCH /profiles/my`; absent: English. */
  locale?: string;
}

export class NamePlainDto {
  first: string;
  last: string;
  @ApiPropertyOptional()
  middle?: string;
}

/** The person as the family's profile screens read it: names, their own e-mail and phone (not the login's contact), birth date. */
export class PersonDto {
  namePlain: NamePlainDto;
  /** The same names (this service keeps one spelling). */
  nameIntl: NamePlainDto;
  @ApiPropertyOptional({ format: 'email' })
  email?: string;
  @ApiPropertyOptional({ example: '+37060000000' })
  phoneNumber?: string;
  @ApiProperty({ type: String, nullable: true, format: 'date', example: '1990-04-01' })
  dateOfBirth: string | null;
  @ApiPropertyOptional()
  description?: string;
}

/** A postal address by parts, as staff set it (`PATCH /profiles/{userId}/address`); a part not known is absent. */
export class AddressDto {
  @ApiPropertyOptional()
  country?: string;
  @ApiPropertyOptional()
  zipCode?: string;
  @ApiPropertyOptional()
  city?: string;
  @ApiPropertyOptional()
  street?: string;
  @ApiPropertyOptional()
  houseNumber?: string;
}

/** The family's kinds of business. */
export const BUSINESS_TYPES = [
  'eshop',
  'reseller_of_goods',
  'service_providers',
  'mobile_operator',
  'storage_providers',
  'high_risk',
  'other',
] as const;

export class BusinessAdministratorDataDto {
  @ApiPropertyOptional()
  firstName?: string;
  @ApiPropertyOptional()
  lastName?: string;
  @ApiPropertyOptional({ format: 'email' })
  email?: string;
  @ApiPropertyOptional()
  phone?: string;
}

/**
 * The business of the organization: a merchant's company name (its organization's, unless staff set another) and
 * legal name, and what staff set (`PATCH /profiles/{userId}/business`). Empty for an individual nobody set one for.
 */
export class BusinessDto {
  @ApiPropertyOptional()
  companyName?: string;
  @ApiPropertyOptional()
  legal?: string;
  @ApiOptionalEnum(BUSINESS_TYPES)
  type?: string;
  @ApiPropertyOptional()
  vat?: string;
  @ApiPropertyOptional({ type: BusinessAdministratorDataDto })
  administrator?: BusinessAdministratorDataDto;
}

export class NotificationChannelsDto {
  @IsBoolean()
  phone: boolean;
  @IsBoolean()
  email: boolean;
}

/** The user's security settings. */
export class SecurityDto {
  /**
   * Two-step login (issue 46): true, each password login of the user is confirmed with a one-time code sent to their
   * login, as with LOGIN_CONFIRMATION=always. Turning it on needs a login a code can reach (an e-mail address or a phone
   * number); turning it off needs a code too (`otp` beside `security`).
   */
  @IsBoolean()
  twoFactorsAuthEnabled: boolean;
  /** Where the user wants to hear of their transactions. */
  @Nested(() => NotificationChannelsDto)
  transactionNotification: NotificationChannelsDto;
  /** Where the user wants to hear of each log-in. */
  @Nested(() => NotificationChannelsDto)
  authorizationNotification: NotificationChannelsDto;
}

/** The person behind the login, as profile pages of this API family read it. */
export class ProfileDataDto {
  /** The type of the membership's organization. */
  @ApiEnum(ORGANIZATION_TYPES)
  type: string;
  /** The identification status of the membership's organization. */
  @ApiEnum(IDENTIFICATION_STATUSES)
  status: string;
  person: PersonDto;
  contact: ContactDto;
  address: AddressDto;
  business: BusinessDto;
  security: SecurityDto;
}

export class MemberShipDto {
  @ApiUuid()
  organizationId: string;
  @ApiEnum(ROLES)
  roleName: string;
}

export class ProfileDto {
  status: 'ok';
  message: string;
  user: ProfileUserDto;
  @ApiEnum(ROLES)
  role: string;
  organization: OrganizationRefDto;
  permissions: string[];
  profile: ProfileDataDto;
  /** Every membership of the user (the token acts as one of them: `organization`). */
  memberShips: MemberShipDto[];
}
