// GET /problem and GET /problem/{problem_id}: the use cases as data.
import { Router } from 'express';
import { HttpProblem } from '../http/problems.ts';
import { useCases } from '../maxcut/use-case.ts';

export function useCase(id: string) {
  const found = useCases.get(id);
  if (!found) throw new HttpProblem('problem_not_found', `No use case "${id}"; GET /problem lists the use cases.`);
  return found;
}

export function problemRoutes(): Router {
  return Router()
    .get('/problem', (_req, res) => {
      res.json({ problem: Object.fromEntries(useCases), ids: [...useCases.keys()] });
    })
    .get('/problem/:problem_id', (req, res) => {
      res.json(useCase(req.params.problem_id!));
    });
}
