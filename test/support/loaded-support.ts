/**
 * Which server-starting support modules this run has loaded. The root hook (hooks.ts) reads it so
 * it imports them (and through them the gateway and Temporal's native libraries) only when a test
 * did: a unit run loads no server code at all. This module imports nothing on purpose.
 */
export const loadedSupport = { servers: false, gateway: false };
