// A body is tied to its path: each use case the contract gives a path of its own (POST /problem/<id>, beside
// the templated one) takes its own input there and nothing else, so another listed use case's example sent to
// it is refused 400 invalid_request with pointers (a part of negative_data_rejection; it needs two use cases).
import type { CheckContext } from '../context.ts';
import { refusalProblem, startOperationOf } from './refusal.ts';

export async function crossedBodies(ctx: CheckContext): Promise<void> {
  const useCases = await ctx.fixtures.useCases(ctx);
  // The use cases whose path the contract documents: a body sent to the templated path is refused by id (404).
  const own = useCases.filter((u) => startOperationOf(ctx, u.id) !== 'startJob');
  if (own.length < 2) {
    ctx.note(
      `not run: a body sent to another use case's path (needs two listed use cases with paths of their own; listed: ${useCases.map((u) => u.id).join(', ')})`,
    );
    return;
  }
  for (const path of own) {
    const schema = ctx.contract.requestSchema(startOperationOf(ctx, path.id));
    for (const body of own) {
      // Only a body the contract refuses at that path (a third use case's input might fit another's shape).
      if (body === path || !ctx.contract.validate(schema, body.example).length) continue;
      if (!ctx.selected(startOperationOf(ctx, path.id))) continue;
      const reply = await ctx.send({ method: 'POST', path: `/problem/${path.id}`, json: body.example });
      const failure = refusalProblem(reply, 400, 'invalid_request');
      if (failure) ctx.fail(`the ${body.id} example sent to /problem/${path.id}: ${failure.message}`, failure.exchange);
    }
  }
}
