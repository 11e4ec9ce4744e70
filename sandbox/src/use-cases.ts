// The use cases the contract lists (the ids of listProblems' example): contract data, not state, so the sandbox
// refuses any other id as a deployment does, with the same words (server/src/http/known-use-case.ts): a path's id
// is 404 problem_not_found once the token is checked and before the body is read; an upload's `problem_id` of
// the documented shape is 404 where Prism accepts the upload; an id refused for its shape (an upload's field, a
// listing's filter: `MaxCut`) is Prism's 400 with the ids there are in its detail.
import { type Answer, type FieldError, problem, problemAnswer } from './conventions.ts';
import type { Operation } from './mock.ts';

/** The use-case ids of the contract: listProblems' documented `ids`. */
export function contractUseCases(operations: readonly Operation[]): string[] {
  const list = operations.find((op) => op.iid === 'listProblems');
  const examples = list?.responses.find((r) => r.code === '200')?.contents?.[0]?.examples ?? [];
  return [...new Set(examples.flatMap((e) => ('value' in e ? ((e.value as { ids?: string[] }).ids ?? []) : [])))];
}

const clipped = (id: string) => (id.length > 64 ? `${id.slice(0, 64)}…` : id);

export function createUseCaseCheck(operations: readonly Operation[]) {
  const ids = contractUseCases(operations);
  const told = (id: string) => `Use case "${clipped(id)}" does not exist; the use cases are: ${ids.join(', ')}.`;
  const notFound = (id: string, path: string) => problemAnswer(problem('problem_not_found', told(id), path));

  /** The 404 for a request whose path names an unknown use case (a segment that does not decode is left to parameters.ts). */
  function inPath(operation: Operation, path: string): Answer | undefined {
    const index = operation.path.split('/').indexOf('{problem_id}');
    if (index < 0) return undefined;
    try {
      const id = decodeURIComponent(path.split('/')[index] ?? '');
      return ids.includes(id) ? undefined : notFound(id, path);
    } catch {
      return undefined;
    }
  }

  /**
   * Prism's answer, with the ids there are where an upload's or a listing's `problem_id` is unknown: a 2xx
   * becomes the 404, a 400 that points at the id says which ids there are.
   */
  function inAnswer(answer: Answer, path: string, problemId: string | null | undefined, pointer: string): Answer {
    if (typeof problemId !== 'string' || ids.includes(problemId)) return answer;
    if (answer.status < 300 && pointer === '/problem_id') return notFound(problemId, path);
    const body = answer.body as { code?: string; detail?: string; errors?: FieldError[] } | undefined;
    if (answer.status !== 400 || !body?.errors?.some((e) => e.pointer === pointer)) return answer;
    return { ...answer, body: { ...body, detail: `${body.detail} ${told(problemId)}` } };
  }

  return { inPath, inAnswer };
}
