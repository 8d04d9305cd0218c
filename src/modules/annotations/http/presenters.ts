// API 2 presenters of annotations (pure reshaping: URNs in the deployment's namespace).
import type { Static } from 'typebox';
import type { UrnType } from '../../../core/ids/urn.ts';
import type { AnnotationCommentRecord, AnnotationCommentView, AnnotationView } from '../index.ts';
import { descriptionText } from '../core/rules.ts';
import type * as A from './schemas.ts';

export function annotationPresenters(urn: (type: UrnType, id: string) => string) {
  const userUrn = (id: string | null) => (id ? urn('user', id) : '');

  const comment = (c: AnnotationCommentRecord): Static<typeof A.AnnotationComment> => ({
    id: urn('annotation-comment', c.id),
    type: 'annotation-comment',
    modificationInfo: { createdAt: c.createdAt.toISOString(), createdBy: userUrn(c.createdBy), isDeleted: false },
    attachedTo: urn('annotation', c.annotationId),
    description: c.description,
    descriptionText: descriptionText(c.description),
    attachments: null,
  });

  const annotation = (v: AnnotationView): Static<typeof A.Annotation> => {
    const a = v.annotation;
    return {
      id: urn('annotation', a.id),
      type: 'annotation',
      workzoneId: urn('workzone', a.workzoneId),
      modificationInfo: {
        createdAt: a.createdAt.toISOString(), createdBy: userUrn(a.createdBy),
        updatedAt: a.updatedAt.toISOString(), ...(a.updatedBy ? { updatedBy: urn('user', a.updatedBy) } : {}),
        isDeleted: false,
      },
      annotationType: a.annotationType,
      title: a.title,
      description: a.description,
      descriptionText: descriptionText(a.description),
      assignedTo: a.assignedTo.map((u) => urn('user', u)),
      dueDate: a.dueDate,
      priority: a.priority,
      number: a.number,
      position: a.position,
      normal: a.normal,
      imgBlobName: a.imgBlobName,
      savedView: a.savedView as Static<typeof A.Annotation>['savedView'],
      modelElementGUIDs: a.modelElementGUIDs,
      comments: v.comments ? v.comments.map(comment) : null,
      attachments: v.attachments,
      labels: a.labels,
      integrations: v.integrations,
    };
  };

  return { annotation, comment: (v: AnnotationCommentView) => comment(v.comment) };
}
