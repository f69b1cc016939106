import { siteDocuments } from '../src/build/site-documents.ts';
import { useCorpus, sentenceIndex } from '../src/services/docs-index.ts';
import { createDocsProvider, rankSentences, chooseSentences } from '../src/services/model/docs-provider.ts';
import { questionConcepts } from '../src/domain/assistant/question-terms.ts';
useCorpus(siteDocuments);
const p = createDocsProvider();
for (const q of process.argv.slice(2)) {
  const chosen = chooseSentences(rankSentences(questionConcepts(q), q.toLowerCase(), sentenceIndex()));
  console.log('Q:', q, JSON.stringify(questionConcepts(q)));
  for (const c of chosen) console.log('  cov', c.coverage.toFixed(2), 'rank', c.rank.toFixed(3), c.sentence.text.slice(0, 260));
}
