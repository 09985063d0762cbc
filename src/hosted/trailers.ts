/** A commit trailer's name as the hosted store keeps one (and writes back into git): letters, digits, hyphens. */
export const TRAILER_KEY = /^[A-Za-z][A-Za-z0-9-]{0,63}$/
