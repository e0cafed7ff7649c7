/**
 * E-mail fixtures built in the test: a multipart message with attachments, as mail clients send
 * them (base64 parts; a forwarded message as a `message/rfc822` part of its own text).
 */

export interface MailAttachment {
  readonly name: string;
  /** Content type, e.g. `application/pdf`; `message/rfc822` puts `bytes` in as text (a forwarded message). */
  readonly type: string;
  readonly bytes: Uint8Array;
}

/**
 * @example
 * const eml = email('Quarter report', [{ name: 'report.pdf', type: 'application/pdf', bytes }]);
 */
export function email(subject: string, attachments: readonly MailAttachment[], body = 'See the attached files.'): string {
  // One boundary per subject: a forwarded message inside this one must not share it.
  const boundary = `b-${Buffer.from(subject).toString('hex')}`;
  const parts = attachments.map(({ name, type, bytes }) =>
    type === 'message/rfc822'
      ? `--${boundary}\nContent-Type: message/rfc822\nContent-Disposition: attachment; filename="${name}"\n\n${Buffer.from(bytes).toString('utf8')}\n`
      : `--${boundary}\nContent-Type: ${type}; name="${name}"\nContent-Disposition: attachment; filename="${name}"\nContent-Transfer-Encoding: base64\n\n${Buffer.from(
          bytes,
        )
          .toString('base64')
          .replace(/.{76}/g, '$&\n')}\n`,
  );
  return `From: a@example.org\nSubject: ${subject}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="${boundary}"\n\n--${boundary}\nContent-Type: text/plain\n\n${body}\n${parts.join('')}--${boundary}--\n`;
}

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
