// AZURE_STORAGE_CONNECTION_STRING, read without the Azure SDK (config.ts checks it at start,
// azure.ts signs with it): `Key=value` pairs separated by `;`.

/** Azurite's well-known development account (UseDevelopmentStorage=true). */
export const DEV_ACCOUNT = 'devstoreaccount1';
export const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export function connectionStringParts(cs: string): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const item of cs.split(';')) {
    const eq = item.indexOf('=');
    if (eq > 0) parts[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
  }
  return parts;
}

export const AZURE_CREDENTIALS_MISSING =
  'AZURE_STORAGE_CONNECTION_STRING must hold AccountName and AccountKey (signed URLs need the account key), or UseDevelopmentStorage=true for Azurite';

/** The account name and key that sign SAS URLs: the string's own, or Azurite's with UseDevelopmentStorage=true; null when one is missing. */
export function accountCredentials(cs: string): { account: string; key: string } | null {
  const parts = connectionStringParts(cs);
  const dev = parts.UseDevelopmentStorage?.toLowerCase() === 'true';
  const account = parts.AccountName ?? (dev ? DEV_ACCOUNT : undefined);
  const key = parts.AccountKey ?? (dev ? DEV_KEY : undefined);
  return account && key ? { account, key } : null;
}
