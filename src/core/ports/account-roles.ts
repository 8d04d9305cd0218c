// The account roles (a leaf: the events' catalogue and the repositories both name them).
export type AccountRole = 'administrator' | 'projectManager' | 'projectLister';
