// The crops module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (CROP_ERROR_CODES) go to the assembled catalogue through module.ts.
// view-crop-forbidden stays in the kernel's catalogue: the files module answers it too (a
// crop cover's blob, src/modules/files/core/blob-urls.ts).
const spec = <S extends number>(status: S) => ({ status: [status] as const, defined: ['spec'] as const });

export const CROP_ERROR_CODES = {
  'invalid-crop-urn': spec(400),
  'create-crop-forbidden': spec(403),
  'update-crop-forbidden': spec(403),
  'delete-crop-forbidden': spec(403),
  'crop-not-found': spec(404),
} as const;

type CropErrorCodesRows = typeof CROP_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends CropErrorCodesRows {}
}
