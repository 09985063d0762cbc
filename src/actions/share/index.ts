import type { Action } from '../../core/action.js'
import { shareSetGeneralAccess, shareSettings, shareStop } from './access.js'
import { shareCheck, shareGet } from './get.js'
import { shareInvite, shareRemove, shareSetExpiry, shareSetRole } from './grants.js'
import { shareCreateLink, shareListLinks, shareRevokeLink, shareRotateLink, shareSetLinkRole } from './links.js'
import { shareAcceptOwnership, shareCancelOwnership, shareDeclineOwnership, shareTransferOwnership } from './ownership.js'
import { shareListRequests, shareRequestAccess, shareRespond } from './requests.js'

export default [
  shareGet,
  shareSetGeneralAccess,
  shareCreateLink,
  shareRevokeLink,
  shareRotateLink,
  shareStop,
  shareInvite,
  shareSetRole,
  shareRemove,
  shareSetExpiry,
  shareSettings,
  shareRequestAccess,
  shareListRequests,
  shareRespond,
  shareTransferOwnership,
  shareAcceptOwnership,
  shareListLinks,
  shareDeclineOwnership,
  shareCancelOwnership,
  shareSetLinkRole,
  shareCheck,
] as Action[]
