/** Instrumentation scope of every span the SDK creates. */
export const SDK_NAME = '@telltale/sdk';
export const SDK_VERSION = '0.1.0';
