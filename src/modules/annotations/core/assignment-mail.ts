// The mail an assignee receives (pure): who assigned what, where, and the link to the project
// in the console. No secret: the link opens the console, which asks the reader to sign in.
import type { Mail } from '../../mail/index.ts';
import type { UserRecord } from '../../../core/ports/repositories.ts';
import type { AnnotationRecord } from './ports.ts';

/** One line of a value that came from a user: no line break can forge a header-like line in the text. */
const oneLine = (s: string, max = 200) => s.replace(/[\r\n\t]+/g, ' ').slice(0, max);

export function assignmentMail(input: {
  to: string;
  annotation: Pick<AnnotationRecord, 'number' | 'title' | 'annotationType' | 'dueDate' | 'projectId'>;
  project: { id: string; accountId: string; name: string };
  zoneName: string;
  by: Pick<UserRecord, 'firstName' | 'lastName' | 'email'> | null;
  publicUrl: string;
}): Mail {
  const { annotation: a, project, by } = input;
  const who = by ? oneLine(`${by.firstName} ${by.lastName}`.trim() || by.email) : 'Someone';
  const link = `${input.publicUrl}/console/a/${project.accountId}/p/${project.id}`;
  const lines = [
    `${who} assigned you an annotation in the project "${oneLine(project.name)}".`,
    '',
    `#${a.number} ${oneLine(a.title, 255)} (${a.annotationType})`,
    `Work zone: ${oneLine(input.zoneName)}`,
    ...(a.dueDate ? [`Due: ${a.dueDate}`] : []),
    '',
    `Open the project: ${link}`,
  ];
  return { to: input.to, subject: `Annotation #${a.number} assigned to you: ${oneLine(a.title, 120)}`, text: lines.join('\n'), links: [link] };
}
