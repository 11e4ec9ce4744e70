// GET /problem and GET /problem/{problem_id}: the use cases as data.
import { Router } from 'express';
import { useCase } from '../http/known-use-case.ts';
import { useCases } from '../maxcut/use-case.ts';

export function problemRoutes(): Router {
  return Router()
    .get('/problem', function listProblems(_req, res) {
      res.json({ problem: Object.fromEntries(useCases), ids: [...useCases.keys()] });
    })
    .get('/problem/:problem_id', function getProblem(req, res) {
      res.json(useCase(req.params.problem_id!));
    });
}
