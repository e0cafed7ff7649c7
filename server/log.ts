/** Structured logs: one JSON object per line on stderr, easy to grep and to ship. */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;
export type Logger = (level: 'info' | 'warn' | 'error', message: string, fields?: LogFields) => void;

export const jsonLogger: Logger = (level, message, fields = {}) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
};

export const silentLogger: Logger = () => {};
