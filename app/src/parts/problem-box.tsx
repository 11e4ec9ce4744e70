// A problem as the service gave it: its detail and code, and each error with its JSON pointer.
import type { Problem } from '@jes/client';

export function ProblemBox({ problem }: { problem: Problem }) {
  const errors = (problem as Problem & { errors?: { pointer?: string; detail?: string }[] }).errors ?? [];
  return (
    <div class="problem" role="alert">
      <p>
        <strong>{problem.title ?? 'Refused'}</strong> <code>{problem.code}</code>
      </p>
      <p>{problem.detail}</p>
      {errors.length > 0 && (
        <ul class="pointers">
          {errors.map((e, i) => (
            <li key={i}>
              <code>{e.pointer ?? '(whole input)'}</code> {e.detail}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
