// The SMTP side of the mail relay (adapter: src/adapters/mail/smtp.ts, nodemailer).
export interface OutgoingMail {
  /** RFC 5322 Message-ID, the same on every attempt of one mail: receivers can drop a resent copy. */
  messageId: string;
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  /** Resolves once the server has accepted the message; rejects with the server's answer or the connection's failure. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}
