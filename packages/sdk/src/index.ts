// @scanbase/sdk: the parts that run anywhere fetch and Web Crypto do (browsers, Node >= 20).
// The file token store, the loopback sign-in and the disk uploads/downloads are in
// `@scanbase/sdk/node`.
export { createScanbaseClient, type ClientOptions, type ClientFetch, type ScanbaseClient, type Api1Paths, type Api2Paths } from './client.ts';
export { ScanbaseError, errorFromBody, errorFromResponse, parseRetryAfter, type ErrorSurface } from './errors.ts';
export { DEFAULT_RETRY, withRetry, isIdempotent, isConnectionFailure, backoffMs, type RetryPolicy } from './retry.ts';
export {
  TokenManager, MemoryTokenStore, authorizationRequest, exchangeCode, refreshTokens, revokeToken, pkcePair, pkceChallenge,
  randomState, toStored, tokenIssuer, EXPIRY_MARGIN_MS, type TokenStore, type StoredTokens, type TokenResponse, type AuthorizationRequest,
} from './auth.ts';
export { RateMeter, type RateSample } from './rate.ts';
export { fetchWithTimeout, isTimeout, timeoutError } from './timeout.ts';
export { readTags, writeTags, deleteTagLists, TAG_BATCH, type TagBatchOptions, type TagWriteResult, type ProjectRefs } from './tags.ts';
export {
  createOperatorClient, type OperatorClient, type OperatorClientOptions, type SnapshotInfo, type FaultRule, type FaultRuleInput,
  type FaultEffect, type JournalEntry, type JournalFilter, type ClockState,
} from './operator.ts';
export { pointCloudStatus, waitForPointCloud, readCopcRange, type PointCloudStatus, type WaitOptions } from './point-clouds.ts';
