import type { Action } from '../../core/action.js'
import { activityList } from './activity.js'
import { notificationList, notificationMarkRead, notificationSettings } from './notification.js'

export default [notificationList, notificationMarkRead, notificationSettings, activityList] as Action[]
