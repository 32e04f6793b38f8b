// The server's version, as /api/health and the API document state it.
export const VERSION = '0.1.0';
