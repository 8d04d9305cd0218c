// The quoting of the inviting side's text in invitation mails (src/modules/users/core/invitation-mails.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invitationMail, QUOTED_MAX, quoteUntrusted } from '../../src/modules/users/core/invitation-mails.ts';

test('invitations: quoted text loses every link-like run (schemes, www., domains, e-mail addresses), line breaks and invisible characters', () => {
  const cases: [string, string][] = [
    ['Acme Surveying', '“Acme Surveying”'],
    ['Pay at https://evil.example/x?y=1 today', '“Pay at [link removed] today”'],
    ['see www.evil.example', '“see [link removed]”'],
    ['evil.example and EVIL.CO.UK', '“[link removed] and [link removed]”'],
    ['mail me: boss@evil.example', '“mail me: [link removed]”'],
    ['javascript:alert(1)', '“[link removed]”'],
    ['line one\r\nline two\tthree', '“line one line two three”'],
    ['right\u202eto\u200bleft', '“right to left”'],
    ['say "hi" “there”', "“say 'hi' 'there'”"],
    ['   ', '“?”'],
  ];
  for (const [input, quoted] of cases) assert.equal(quoteUntrusted(input), quoted, JSON.stringify(input));
});

test('invitations: quoted text is cut at QUOTED_MAX characters', () => {
  const q = quoteUntrusted('x'.repeat(500));
  assert.equal([...q].length, QUOTED_MAX + 2);
  assert.ok(q.endsWith('…”'));
});

test('invitations: the mail\'s only links are the service\'s; its subject holds nothing of the inviting side', () => {
  const mail = invitationMail({ to: 'a@b.test', accountName: 'Acme http://evil.example', inviter: 'x@evil.example', publicUrl: 'https://scan.example.com' });
  assert.deepEqual(mail.links, ['https://scan.example.com/account']);
  assert.doesNotMatch(`${mail.subject}\n${mail.text}`, /evil/);
  const withLink = invitationMail({
    to: 'a@b.test', accountName: 'Acme', inviter: 'Boss', publicUrl: 'https://scan.example.com',
    setPasswordLink: { url: 'https://scan.example.com/invitations/tok', token: 'tok' },
  });
  assert.deepEqual(withLink.links, ['https://scan.example.com/invitations/tok']);
  assert.equal(withLink.secret, 'tok');
});
