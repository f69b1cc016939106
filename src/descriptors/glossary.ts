/** The glossary's terms, read from `content/glossary.json` and checked against its schema at load. */
import glossaryContent from '../../content/glossary.json' with { type: 'json' };
import { glossarySchema } from '../../schemas/glossary.ts';

export const GLOSSARY = glossarySchema.parse(glossaryContent);
