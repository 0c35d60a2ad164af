/** Names and bounds of the offline engine, kept apart from it so that they load without it. */
export const OFFLINE_ENGINE = 'offline';
export const MAX_COUNT = 15;
