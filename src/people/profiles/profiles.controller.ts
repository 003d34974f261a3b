import { Body, Caller, ClientAddress, Principal, Route, Routes, UuidParam } from '../../platform/http';
import * as dto from './dto/people.dto';
import { ProfileDto } from './dto/profile.dto';
import { ResetIdentificationDto, UpdateAddressDto, UpdateBusinessDto, UpdateUserLoginDto } from './dto/staff.dto';
import { ProfilesService } from './profiles.service';

const OWNER = { access: ['PROFILE_OWNER'] } as const;
/** Staff edit a user's profile: not one of a user holding permissions the caller lacks. */
const EDIT = { access: ['PROFILE_MANAGER'], errors: ['exception.profile.edit_forbidden', 'exception.profile.not_found'] } as const;
/** Compliance decides the identification of the user's organization. */
const IDENTIFY = {
  access: ['IDENTIFICATION_MANAGER'],
  status: 200,
  errors: ['exception.profile.not_found', 'exception.identification.unchanged'],
} as const;
/** Compliance decides a reset request. */
const DECIDE_RESET = {
  access: ['IDENTIFICATION_MANAGER'],
  status: 200,
  errors: ['exception.reset_identification_request.not_found', 'exception.reset_identification_request.decided'],
} as const;
const TWO_FACTOR_UNREACHABLE = 'exception.two_factor.unreachable';

/** A profile as a change answers it. */
async function changed<T>(message: string, profile: Promise<T>): Promise<{ status: 'ok'; message: string; profile: T }> {
  return { status: 'ok', message, profile: await profile };
}

@Routes('profiles')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /** The caller: user, person and contact, the membership's organization and role, its permissions, and every membership. */
  @Route('GET', 'my', { summary: "The caller's profile", access: [] })
  getMyProfile(@Caller() caller: Principal): Promise<ProfileDto> {
    return this.profiles.my(caller);
  }

  /** The caller edits their own person data: first and last name, birth date, address (null clears one). */
  @Route('PATCH', 'my', { ...OWNER, summary: "Edit the caller's own profile" })
  updateMyProfile(@Body() body: dto.UpdateMyProfileDto, @Caller() caller: Principal): Promise<dto.UserProfileResponseDto> {
    return changed('Profile updated', this.profiles.updateMine(caller, body));
  }

  /** The family's person form: names, the person's own e-mail and phone, birth date, description (null clears one). */
  @Route('PATCH', 'my/person', { ...OWNER, summary: "Edit the caller's person data" })
  updateMyPerson(@Body() body: dto.UpdateMyPersonDto, @Caller() caller: Principal): Promise<dto.MyProfileResponseDto> {
    return changed('Profile updated', this.profiles.updateMyPerson(caller, body));
  }

  /** Transaction and log-in notices, and two-step login: turning it off takes the code a request without `otp` sends. */
  @Route('PATCH', 'my/security-settings', {
    ...OWNER,
    summary: "Edit the caller's security settings",
    errors: [
      TWO_FACTOR_UNREACHABLE,
      'exception.two_factor.code_required',
      ['exception.confirmation_code.not_found', 'a wrong otp'],
      ['exception.rate_limited', 'too many codes or wrong codes'],
    ],
  })
  async updateMySecuritySettings(
    @Body() body: dto.UpdateMySecuritySettingsDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.MyProfileResponseDto> {
    const profile = await this.profiles.updateMySecurity(caller, body, address);
    return { status: 'ok', message: 'Security settings updated', profile };
  }

  /** A user's profile with the identification status of their organization: the user themself, or staff with PROFILE_VIEWER. */
  @Route('GET', ':userId', { ...OWNER, summary: "A user's profile", errors: ['exception.profile.not_found'] })
  getProfile(@UuidParam('userId') userId: string, @Caller() caller: Principal): Promise<dto.UserProfileResponseDto> {
    return changed('OK', this.profiles.get(caller, userId));
  }

  /** Staff edit a user's person, with the family's body: names, the person's own e-mail and phone, birth date, description (null clears one). */
  @Route('PATCH', ':userId/person', { ...EDIT, summary: "Edit a user's person data" })
  updateUserPerson(
    @UuidParam('userId') userId: string,
    @Body() body: dto.UpdateMyPersonDto,
    @Caller() caller: Principal,
  ): Promise<dto.UserProfileResponseDto> {
    return changed('Profile updated', this.profiles.editPerson(caller, userId, body));
  }

  /** Staff set a user's postal address by parts, the whole of it under `address` (an absent part is cleared). */
  @Route('PATCH', ':userId/address', { ...EDIT, summary: "Set a user's address" })
  updateUserAddress(
    @UuidParam('userId') userId: string,
    @Body() body: UpdateAddressDto,
    @Caller() caller: Principal,
  ): Promise<dto.UserProfileResponseDto> {
    return changed('Address updated', this.profiles.editAddress(caller, userId, body));
  }

  /** Staff set the business of the user's organization, the whole of it at the top level (an absent field is cleared). */
  @Route('PATCH', ':userId/business', { ...EDIT, summary: "Set the business of a user's organization" })
  updateUserBusiness(
    @UuidParam('userId') userId: string,
    @Body() body: UpdateBusinessDto,
    @Caller() caller: Principal,
  ): Promise<dto.UserProfileResponseDto> {
    return changed('Business updated', this.profiles.editBusiness(caller, userId, body));
  }

  /**
   * A code goes to the new login (an e-mail or a phone number) and the user is told; it is theirs once they confirm the code in their own
   * session (`POST /profiles/my/contact/confirm`). Their own contact again asks nothing.
   */
  @Route('PATCH', ':userId/contact', {
    ...EDIT,
    summary: "Ask to change a user's login contact: the user confirms it",
    errors: [
      ['exception.profile.edit_forbidden', "the user holds permissions the caller lacks, or it is the caller's own login"],
      'exception.profile.not_found',
      ['exception.user.login_taken', 'another user has this login'],
      ['exception.rate_limited', 'a code was sent to this login less than ONE_TIME_CODE_RESEND_SECONDS ago, or too many this hour'],
    ],
  })
  async updateUserContact(
    @UuidParam('userId') userId: string,
    @Body() body: UpdateUserLoginDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.UserProfileResponseDto> {
    const profile = await this.profiles.editContact(caller, userId, body.login, address);
    return { status: 'ok', message: 'A code was sent to the new login; it becomes the user’s once they confirm it', profile };
  }

  /** Staff set a user's security settings, the whole of them under `security`; two-step login on or off needs no code from staff. */
  @Route('PATCH', ':userId/security-settings', {
    ...EDIT,
    summary: "Set a user's security settings",
    errors: [...EDIT.errors, TWO_FACTOR_UNREACHABLE],
  })
  updateUserSecuritySettings(
    @UuidParam('userId') userId: string,
    @Body() body: dto.UpdateMySecurityDto,
    @Caller() caller: Principal,
  ): Promise<dto.UserProfileResponseDto> {
    return changed('Security settings updated', this.profiles.editSecurity(caller, userId, body));
  }

  /** Compliance approves the identification of the user's organization (the family's decision, without a body). */
  @Route('POST', ':userId/approve', { ...IDENTIFY, summary: "Approve a user's identification" })
  approveIdentification(@UuidParam('userId') userId: string, @Caller() caller: Principal): Promise<dto.UserProfileResponseDto> {
    return changed('Identification approved', this.profiles.decideIdentification(caller, userId, 'approve'));
  }

  /** Compliance declines the identification of the user's organization (without a body). */
  @Route('POST', ':userId/decline', { ...IDENTIFY, summary: "Decline a user's identification" })
  declineIdentification(@UuidParam('userId') userId: string, @Caller() caller: Principal): Promise<dto.UserProfileResponseDto> {
    return changed('Identification declined', this.profiles.decideIdentification(caller, userId, 'decline'));
  }

  /** Compliance resets the identification of the user's organization to `none`, whatever it was (the client's `fields` are ignored). */
  @Route('POST', ':userId/reset', { ...IDENTIFY, summary: "Reset a user's identification" })
  resetIdentification(
    @UuidParam('userId') userId: string,
    @Body() _dto: ResetIdentificationDto,
    @Caller() caller: Principal,
  ): Promise<dto.UserProfileResponseDto> {
    return changed('Identification reset', this.profiles.decideIdentification(caller, userId, 'reset'));
  }

  /** Compliance sets the identification status (none → pending → approved | declined | review_required), with a reason. */
  @Route('POST', ':userId/identification', { ...IDENTIFY, summary: "Change a user's identification status" })
  changeIdentification(
    @UuidParam('userId') userId: string,
    @Body() body: dto.ChangeIdentificationDto,
    @Caller() caller: Principal,
  ): Promise<dto.UserProfileResponseDto> {
    return changed('Identification changed', this.profiles.changeIdentification(caller, userId, body));
  }

  /** Asks to reset an approved identification: the user themself, or staff with PROFILE_VIEWER. One pending request at a time. */
  @Route('POST', ':userId/reset-identification-requests', {
    ...OWNER,
    summary: 'Ask to reset an approved identification',
    errors: [
      'exception.profile.not_found',
      'exception.reset_identification_request.not_approved',
      'exception.reset_identification_request.pending',
    ],
  })
  async createResetIdentificationRequest(
    @UuidParam('userId') userId: string,
    @Body() body: dto.CreateResetIdentificationRequestDto,
    @Caller() caller: Principal,
  ): Promise<dto.ResetIdentificationRequestResponseDto> {
    return { status: 'ok', message: 'Reset requested', ...(await this.profiles.requestReset(caller, userId, body.reason)) };
  }

  /** A user's identification reset requests, newest first: the user themself, or staff with PROFILE_VIEWER. */
  @Route('POST', ':userId/reset-identification-requests/view', {
    ...OWNER,
    summary: "Search a user's identification reset requests",
    status: 200,
    errors: ['exception.profile.not_found'],
  })
  viewResetIdentificationRequests(
    @UuidParam('userId') userId: string,
    @Body() body: dto.ResetIdentificationRequestViewDto,
    @Caller() caller: Principal,
  ): Promise<dto.ResetIdentificationRequestPageDto> {
    return this.profiles.viewResets(caller, userId, body);
  }

  /** Approves a pending request: the identification goes back to `none`. */
  @Route('POST', ':userId/reset-identification-requests/:reqId/approve', {
    ...DECIDE_RESET,
    summary: 'Approve an identification reset request',
  })
  async approveResetIdentificationRequest(
    @UuidParam('userId') userId: string,
    @UuidParam('reqId') id: string,
    @Caller() caller: Principal,
  ): Promise<dto.ResetIdentificationRequestResponseDto> {
    const decided = await this.profiles.decideReset(caller, userId, id, { approve: true, reason: null });
    return { status: 'ok', message: 'Reset approved', ...decided };
  }

  /** Declines a pending request, with a reason; the identification stays. */
  @Route('POST', ':userId/reset-identification-requests/:reqId/decline', {
    ...DECIDE_RESET,
    summary: 'Decline an identification reset request',
  })
  async declineResetIdentificationRequest(
    @UuidParam('userId') userId: string,
    @UuidParam('reqId') id: string,
    @Body() body: dto.DeclineResetIdentificationRequestDto,
    @Caller() caller: Principal,
  ): Promise<dto.ResetIdentificationRequestResponseDto> {
    const decided = await this.profiles.decideReset(caller, userId, id, { approve: false, reason: body.reason });
    return { status: 'ok', message: 'Reset declined', ...decided };
  }
}
