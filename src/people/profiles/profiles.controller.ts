import { Body, Controller, Get, HttpCode, Patch, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../../platform/access/principal';
import { clientAddress } from '../../platform/common/http';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import {
  ChangeIdentificationDto,
  CreateResetIdentificationRequestDto,
  DeclineResetIdentificationRequestDto,
  ResetIdentificationRequestPageDto,
  ResetIdentificationRequestResponseDto,
  ResetIdentificationRequestViewDto,
  MyProfileResponseDto,
  UpdateMyPersonDto,
  UpdateMyProfileDto,
  UpdateMySecurityDto,
  UpdateMySecuritySettingsDto,
  UserProfileResponseDto,
} from './dto/people.dto';
import { ProfileDto } from './dto/profile.dto';
import { ResetIdentificationDto, UpdateAddressDto, UpdateBusinessDto, UpdateUserLoginDto } from './dto/staff.dto';
import { ProfilesService } from './profiles.service';

const USER_ID = { name: 'userId', schema: { type: 'string', format: 'uuid' } } as const;
const REQUEST_ID = { name: 'reqId', schema: { type: 'string', format: 'uuid' } } as const;
const NO_PROFILE = { description: 'exception.profile.not_found: no such user, or not one the caller may see', type: ErrorResponseDto };
const OUTRANKED = { description: 'exception.profile.edit_forbidden: the user holds permissions the caller lacks', type: ErrorResponseDto };
const UNCHANGED = { description: 'exception.identification.unchanged: the identification already has this status', type: ErrorResponseDto };
const NO_REQUEST = {
  description: "exception.reset_identification_request.not_found: no such request, or another user's",
  type: ErrorResponseDto,
};

@ApiTags('profiles')
@Controller('profiles')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /** The caller: user, person and contact, the membership's organization and role, its permissions, and every membership. */
  @Get('my')
  @RequirePermissions()
  @ApiOperation({ summary: "The caller's profile", operationId: 'getMyProfile' })
  @ApiOkResponse({ type: ProfileDto })
  my(@CurrentPrincipal() principal: Principal): Promise<ProfileDto> {
    return this.profiles.my(principal);
  }

  /** The caller edits their own person data: first and last name, birth date, address (null clears one). */
  @Patch('my')
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: "Edit the caller's own profile", operationId: 'updateMyProfile' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  async updateMine(@Body() dto: UpdateMyProfileDto, @CurrentPrincipal() principal: Principal): Promise<UserProfileResponseDto> {
    return { status: 'ok', message: 'Profile updated', profile: await this.profiles.updateMine(principal, dto) };
  }

  /** The family's person form: names, the person's own e-mail and phone, birth date, description (null clears one). */
  @Patch('my/person')
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: "Edit the caller's person data", operationId: 'updateMyPerson' })
  @ApiOkResponse({ type: MyProfileResponseDto })
  @ApiBadRequestResponse({
    description: 'exception.validation: a field out of its rules, or a birth date in the future',
    type: ErrorResponseDto,
  })
  async updateMyPerson(@Body() dto: UpdateMyPersonDto, @CurrentPrincipal() principal: Principal): Promise<MyProfileResponseDto> {
    return { status: 'ok', message: 'Profile updated', profile: await this.profiles.updateMyPerson(principal, dto) };
  }

  /**
   * The caller's security settings: notifications of transactions and of log-ins, and two-step login
   * (`twoFactorsAuthEnabled`). Turning two-step login off takes the code the same request without `otp` sends.
   */
  @Patch('my/security-settings')
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: "Edit the caller's security settings", operationId: 'updateMySecuritySettings' })
  @ApiOkResponse({ type: MyProfileResponseDto })
  @ApiBadRequestResponse({
    description:
      'exception.validation: a setting missing; exception.two_factor.unreachable: two-step login for a login no code reaches; exception.two_factor.code_required: turning it off without otp (a code was sent); exception.confirmation_code.not_found: a wrong otp',
    type: ErrorResponseDto,
  })
  @ApiTooManyRequestsResponse({ description: 'exception.rate_limited: too many codes or wrong codes', type: ErrorResponseDto })
  async updateMySecurity(
    @Body() dto: UpdateMySecuritySettingsDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: ApiRequest,
  ): Promise<MyProfileResponseDto> {
    const profile = await this.profiles.updateMySecurity(principal, dto, clientAddress(request));
    return { status: 'ok', message: 'Security settings updated', profile };
  }

  /** A user's profile with the identification status of their organization: the user themself, or staff with PROFILE_VIEWER. */
  @Get(':userId')
  @ApiParam(USER_ID)
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: "A user's profile", operationId: 'getProfile' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiNotFoundResponse(NO_PROFILE)
  async get(@UuidParam('userId') userId: string, @CurrentPrincipal() principal: Principal): Promise<UserProfileResponseDto> {
    return { status: 'ok', message: 'OK', profile: await this.profiles.get(principal, userId) };
  }

  /** Staff edit a user's person, with the family's body: names, the person's own e-mail and phone, birth date, description (null clears one). */
  @Patch(':userId/person')
  @ApiParam(USER_ID)
  @RequirePermissions('PROFILE_MANAGER')
  @ApiOperation({ summary: "Edit a user's person data", operationId: 'updateUserPerson' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiBadRequestResponse({
    description: 'exception.validation: a field out of its rules, or a birth date in the future',
    type: ErrorResponseDto,
  })
  @ApiForbiddenResponse(OUTRANKED)
  @ApiNotFoundResponse(NO_PROFILE)
  async editPerson(
    @UuidParam('userId') userId: string,
    @Body() dto: UpdateMyPersonDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<UserProfileResponseDto> {
    return { status: 'ok', message: 'Profile updated', profile: await this.profiles.editPerson(principal, userId, dto) };
  }

  /** Staff set a user's postal address by parts, the whole of it under `address` (an absent part is cleared). */
  @Patch(':userId/address')
  @ApiParam(USER_ID)
  @RequirePermissions('PROFILE_MANAGER')
  @ApiOperation({ summary: "Set a user's address", operationId: 'updateUserAddress' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiBadRequestResponse({ description: 'exception.validation: a part out of its rules', type: ErrorResponseDto })
  @ApiForbiddenResponse(OUTRANKED)
  @ApiNotFoundResponse(NO_PROFILE)
  async editAddress(
    @UuidParam('userId') userId: string,
    @Body() dto: UpdateAddressDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<UserProfileResponseDto> {
    return { status: 'ok', message: 'Address updated', profile: await this.profiles.editAddress(principal, userId, dto) };
  }

  /** Staff set the business of the user's organization, the whole of it at the top level (an absent field is cleared). */
  @Patch(':userId/business')
  @ApiParam(USER_ID)
  @RequirePermissions('PROFILE_MANAGER')
  @ApiOperation({ summary: "Set the business of a user's organization", operationId: 'updateUserBusiness' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiBadRequestResponse({ description: 'exception.validation: a field out of its rules', type: ErrorResponseDto })
  @ApiForbiddenResponse(OUTRANKED)
  @ApiNotFoundResponse(NO_PROFILE)
  async editBusiness(
    @UuidParam('userId') userId: string,
    @Body() dto: UpdateBusinessDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<UserProfileResponseDto> {
    return { status: 'ok', message: 'Business updated', profile: await this.profiles.editBusiness(principal, userId, dto) };
  }

  /**
   * Staff ask to change a user's login contact, an e-mail address or a phone number (issue 43): a code goes to it and
   * the user is told at their current address; nothing changes until the user confirms the code in their own session
   * (`POST /profiles/my/contact/confirm`). The user's own contact again changes nothing.
   */
  @Patch(':userId/contact')
  @ApiParam(USER_ID)
  @RequirePermissions('PROFILE_MANAGER')
  @ApiOperation({ summary: "Ask to change a user's login contact: the user confirms it", operationId: 'updateUserContact' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiBadRequestResponse({ description: 'exception.validation: not an e-mail address or a phone number', type: ErrorResponseDto })
  @ApiForbiddenResponse({
    description: `${OUTRANKED.description}; or it is the caller's own login (changed at POST /profiles/my/contact)`,
    type: ErrorResponseDto,
  })
  @ApiNotFoundResponse(NO_PROFILE)
  @ApiConflictResponse({ description: 'exception.user.login_taken: another user has this login', type: ErrorResponseDto })
  @ApiTooManyRequestsResponse({
    description:
      'exception.rate_limited: a code was sent to this login less than ONE_TIME_CODE_RESEND_SECONDS ago, or too many this hour (Retry-After)',
    type: ErrorResponseDto,
  })
  async editContact(
    @UuidParam('userId') userId: string,
    @Body() dto: UpdateUserLoginDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: ApiRequest,
  ): Promise<UserProfileResponseDto> {
    const profile = await this.profiles.editContact(principal, userId, dto.login, clientAddress(request));
    return { status: 'ok', message: 'A code was sent to the new login; it becomes the user’s once they confirm it', profile };
  }

  /** Staff set a user's security settings, the whole of them under `security`; two-step login on or off needs no code from staff. */
  @Patch(':userId/security-settings')
  @ApiParam(USER_ID)
  @RequirePermissions('PROFILE_MANAGER')
  @ApiOperation({ summary: "Set a user's security settings", operationId: 'updateUserSecuritySettings' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiBadRequestResponse({
    description: 'exception.validation: a setting missing; exception.two_factor.unreachable: two-step login for a login no code reaches',
    type: ErrorResponseDto,
  })
  @ApiForbiddenResponse(OUTRANKED)
  @ApiNotFoundResponse(NO_PROFILE)
  async editSecurity(
    @UuidParam('userId') userId: string,
    @Body() dto: UpdateMySecurityDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<UserProfileResponseDto> {
    return { status: 'ok', message: 'Security settings updated', profile: await this.profiles.editSecurity(principal, userId, dto) };
  }

  /** Compliance approves the identification of the user's organization (the family's decision, without a body). */
  @Post(':userId/approve')
  @HttpCode(200)
  @ApiParam(USER_ID)
  @RequirePermissions('IDENTIFICATION_MANAGER')
  @ApiOperation({ summary: "Approve a user's identification", operationId: 'approveIdentification' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiNotFoundResponse(NO_PROFILE)
  @ApiConflictResponse(UNCHANGED)
  async approveIdentification(
    @UuidParam('userId') userId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<UserProfileResponseDto> {
    return {
      status: 'ok',
      message: 'Identification approved',
      profile: await this.profiles.decideIdentification(principal, userId, 'approve'),
    };
  }

  /** Compliance declines the identification of the user's organization (without a body). */
  @Post(':userId/decline')
  @HttpCode(200)
  @ApiParam(USER_ID)
  @RequirePermissions('IDENTIFICATION_MANAGER')
  @ApiOperation({ summary: "Decline a user's identification", operationId: 'declineIdentification' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiNotFoundResponse(NO_PROFILE)
  @ApiConflictResponse(UNCHANGED)
  async declineIdentification(
    @UuidParam('userId') userId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<UserProfileResponseDto> {
    return {
      status: 'ok',
      message: 'Identification declined',
      profile: await this.profiles.decideIdentification(principal, userId, 'decline'),
    };
  }

  /** Compliance resets the identification of the user's organization to `none`, whatever it was (the client's `fields` are ignored). */
  @Post(':userId/reset')
  @HttpCode(200)
  @ApiParam(USER_ID)
  @RequirePermissions('IDENTIFICATION_MANAGER')
  @ApiOperation({ summary: "Reset a user's identification", operationId: 'resetIdentification' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiNotFoundResponse(NO_PROFILE)
  @ApiConflictResponse(UNCHANGED)
  async resetIdentification(
    @UuidParam('userId') userId: string,
    @Body() _dto: ResetIdentificationDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<UserProfileResponseDto> {
    return { status: 'ok', message: 'Identification reset', profile: await this.profiles.decideIdentification(principal, userId, 'reset') };
  }

  /** Compliance sets the identification status (none → pending → approved | declined | review_required), with a reason. */
  @Post(':userId/identification')
  @HttpCode(200)
  @ApiParam(USER_ID)
  @RequirePermissions('IDENTIFICATION_MANAGER')
  @ApiOperation({ summary: "Change a user's identification status", operationId: 'changeIdentification' })
  @ApiOkResponse({ type: UserProfileResponseDto })
  @ApiNotFoundResponse({ description: 'exception.profile.not_found', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.identification.unchanged', type: ErrorResponseDto })
  async changeIdentification(
    @UuidParam('userId') userId: string,
    @Body() dto: ChangeIdentificationDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<UserProfileResponseDto> {
    return { status: 'ok', message: 'Identification changed', profile: await this.profiles.changeIdentification(principal, userId, dto) };
  }

  /** Asks to reset an approved identification: the user themself, or staff with PROFILE_VIEWER. One pending request at a time. */
  @Post(':userId/reset-identification-requests')
  @ApiParam(USER_ID)
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: 'Ask to reset an approved identification', operationId: 'createResetIdentificationRequest' })
  @ApiCreatedResponse({ type: ResetIdentificationRequestResponseDto })
  @ApiNotFoundResponse(NO_PROFILE)
  @ApiConflictResponse({
    description: 'exception.reset_identification_request.not_approved, or exception.reset_identification_request.pending',
    type: ErrorResponseDto,
  })
  async requestReset(
    @UuidParam('userId') userId: string,
    @Body() dto: CreateResetIdentificationRequestDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ResetIdentificationRequestResponseDto> {
    return { status: 'ok', message: 'Reset requested', ...(await this.profiles.requestReset(principal, userId, dto.reason)) };
  }

  /** A user's identification reset requests, newest first: the user themself, or staff with PROFILE_VIEWER. */
  @Post(':userId/reset-identification-requests/view')
  @HttpCode(200)
  @ApiParam(USER_ID)
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: "Search a user's identification reset requests", operationId: 'viewResetIdentificationRequests' })
  @ApiOkResponse({ type: ResetIdentificationRequestPageDto })
  @ApiNotFoundResponse(NO_PROFILE)
  viewResets(
    @UuidParam('userId') userId: string,
    @Body() dto: ResetIdentificationRequestViewDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ResetIdentificationRequestPageDto> {
    return this.profiles.viewResets(principal, userId, dto);
  }

  /** Approves a pending request: the identification goes back to `none`. */
  @Post(':userId/reset-identification-requests/:reqId/approve')
  @HttpCode(200)
  @ApiParam(USER_ID)
  @ApiParam(REQUEST_ID)
  @RequirePermissions('IDENTIFICATION_MANAGER')
  @ApiOperation({ summary: 'Approve an identification reset request', operationId: 'approveResetIdentificationRequest' })
  @ApiOkResponse({ type: ResetIdentificationRequestResponseDto })
  @ApiNotFoundResponse(NO_REQUEST)
  @ApiConflictResponse({ description: 'exception.reset_identification_request.decided', type: ErrorResponseDto })
  async approve(
    @UuidParam('userId') userId: string,
    @UuidParam('reqId') id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ResetIdentificationRequestResponseDto> {
    return {
      status: 'ok',
      message: 'Reset approved',
      ...(await this.profiles.decideReset(principal, userId, id, { approve: true, reason: null })),
    };
  }

  /** Declines a pending request, with a reason; the identification stays. */
  @Post(':userId/reset-identification-requests/:reqId/decline')
  @HttpCode(200)
  @ApiParam(USER_ID)
  @ApiParam(REQUEST_ID)
  @RequirePermissions('IDENTIFICATION_MANAGER')
  @ApiOperation({ summary: 'Decline an identification reset request', operationId: 'declineResetIdentificationRequest' })
  @ApiOkResponse({ type: ResetIdentificationRequestResponseDto })
  @ApiNotFoundResponse(NO_REQUEST)
  @ApiConflictResponse({ description: 'exception.reset_identification_request.decided', type: ErrorResponseDto })
  async decline(
    @UuidParam('userId') userId: string,
    @UuidParam('reqId') id: string,
    @Body() dto: DeclineResetIdentificationRequestDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ResetIdentificationRequestResponseDto> {
    return {
      status: 'ok',
      message: 'Reset declined',
      ...(await this.profiles.decideReset(principal, userId, id, { approve: false, reason: dto.reason })),
    };
  }
}
