/** The billing domain's public surface. */
export { BillingService, type Admission, type RateLimitHeaders } from './service.ts';
export { CreditLedger, InsufficientCredit, type Reservation } from './credits.ts';
export { ManualClock, systemClock, type Clock } from './clock.ts';
export { ENDPOINTS, OTHER_ENDPOINT, endpointByName, matchEndpoint, type EndpointKey, type KnownEndpoint } from './endpoints.ts';
export { limitsFor, DAY_LIMITS, MINUTE_LIMITS, DEFAULT_MINUTE_LIMIT, ENTERPRISE_CUSTOM_DEFAULT, type WindowName } from './limits.ts';
export { PRICES, priceOf, priceTable, MICROS_PER_USD, STARTING_CREDIT_MICROS, usd } from './prices.ts';
export { chargeFor, meterRequests, rejectUpgrade, Meter } from './middleware.ts';
export { ProcessRateLimitStore, SharedRateLimitStore, type RateLimitStore } from './rate-limit-store.ts';
