// The tags module's HTTP face for other modules' routes: API 2's tag list, as a schema and a
// presenter (the P&ID module's bulk-add answers with the list it changed).
export { TagList, tagListPresenter } from './api2.ts';
