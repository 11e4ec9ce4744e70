// GET /problem and GET /problem/{problem_id}: the use cases as data.
import { Router } from 'express';
import { useCase } from '../http/known-use-case.ts';
import { useCases } from '../use-cases.ts';

export function problemRoutes(): Router {
  return (
    Router()
      .get('/problem', function listProblems(_req, res) {
        res.json({
          problem: Object.fromEntries([...useCases].map(([id, u]) => [id, u.record])),
          ids: [...useCases.keys()],
        });
      })
      // Also each use case's own get…UseCase operation: its path in the contract is this route with its id.
      .get('/problem/:problem_id', function getProblem(req, res) {
        res.json(useCase(req.params.problem_id!).record);
      })
  );
}
