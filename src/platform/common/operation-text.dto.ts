import { Description } from './dto-fields';

/** Maximum lengths of the free-text fields (the specification leaves them open). */
export const DESCRIPTION_MAX = 500;
export const CUSTOM_INFORMATION_MAX = 1000;
/** The longest `fullName` of a person handing over or taking cash (specification 2.3: its length is bounded; longer is a 400). */
export const FULL_NAME_MAX = 255;

/** The free-text fields of every money-moving request (section 4.3: customInformation). */
export class OperationTextDto {
  @Description(DESCRIPTION_MAX)
  description?: string;

  /** Free text passed by system and business users (release 4.10.0), at most 1000 characters. */
  @Description(CUSTOM_INFORMATION_MAX)
  customInformation?: string;
}
