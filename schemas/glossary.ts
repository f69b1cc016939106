/**
 * The glossary (`content/glossary.json`, the `/glossary/` page): every term of the economy with one
 * definition, which the docs assistant quotes for "what is X".
 */
import { z } from 'zod';

export const glossaryTermSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/).describe('Anchor of the term on the glossary page, stable across versions.'),
  term: z.string().min(1).describe('The term as the pages write it.'),
  also: z.array(z.string().regex(/^[^A-Z]+$/)).describe('Other ways a question names it, in lower case.'),
  definition: z.string().min(1).describe('Its one definition, a sentence that names the term.'),
  page: z.string().startsWith('/').describe('Path of the page that says more.'),
});

export const glossarySchema = z.object({
  summary: z.string().min(1),
  terms: z.array(glossaryTermSchema).min(1),
});

export type GlossaryTerm = z.infer<typeof glossaryTermSchema>;
