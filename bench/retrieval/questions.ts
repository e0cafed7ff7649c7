/**
 * The retrieval question set: questions a reader would ask of the docling test PDFs
 * (`../shared/data/docling-dev/pdf`), each with the page(s) that answer it. Written by hand from the
 * PDFs. About half reuse the document's words (BM25's home ground), half paraphrase them (where
 * embeddings should help); a few are Korean, for the Korean report, which the English-only MiniLM
 * model cannot read. A page counts as relevant when it answers the question on its own; where the
 * same text sits in two PDFs (invisible_text_layer.pdf repeats page 3 of multi_page.pdf), both count.
 */
export interface RetrievalQuestion {
  readonly question: string;
  /** Acceptable answers: file name (relative to the PDF folder) and 1-based page. */
  readonly relevant: readonly { readonly file: string; readonly page: number }[];
  /** `lexical` when the question reuses the page's words, `paraphrase` when it does not. */
  readonly style: 'lexical' | 'paraphrase';
}

const mp = (page: number) => ({ file: 'multi_page.pdf', page });
const inv = { file: 'invisible_text_layer.pdf', page: 1 };
const otsl = { file: '2305.03393v1-pg9.pdf', page: 1 };
const amt = { file: 'amt_handbook_sample.pdf', page: 1 };
const kr = (page: number) => ({ file: 'normal_4pages.pdf', page });
const code = (page: number) => ({ file: 'code_and_formula.pdf', page });
const legal = { file: 'table_mislabeled_as_picture.pdf', page: 1 };

export const QUESTIONS: readonly RetrievalQuestion[] = [
  { question: 'Who patented the typewriter in 1868?', relevant: [mp(1)], style: 'lexical' },
  { question: 'When did IBM introduce the electric typewriter?', relevant: [mp(1)], style: 'lexical' },
  { question: 'What did the IBM MT/ST combine?', relevant: [mp(1)], style: 'lexical' },
  {
    question: 'Which company sold dedicated word processing machines with small screens and floppy disks in the 1970s?',
    relevant: [mp(1)],
    style: 'paraphrase',
  },
  { question: 'Which early program for CP/M introduced cut, copy and paste?', relevant: [mp(1)], style: 'lexical' },
  { question: 'When was Word for MS-DOS released?', relevant: [mp(1)], style: 'lexical' },
  { question: 'Which word processor was favoured by lawyers in the eighties?', relevant: [mp(2), mp(3), inv], style: 'paraphrase' },
  { question: 'What free open-source office alternatives appeared in the early 2000s?', relevant: [mp(2)], style: 'lexical' },
  { question: 'Which cloud tool from 2006 let teams edit documents together in real time?', relevant: [mp(2)], style: 'paraphrase' },
  { question: 'How might artificial intelligence change word processors in the future?', relevant: [mp(2), mp(4)], style: 'paraphrase' },
  { question: 'What software do screenwriters use to format scripts?', relevant: [mp(3)], style: 'paraphrase' },
  { question: 'Why do scientists prefer LaTeX for mathematical papers?', relevant: [mp(3)], style: 'paraphrase' },
  { question: 'When did undo and redo appear?', relevant: [mp(3), inv], style: 'lexical' },
  { question: 'Which feature lets several people propose edits while keeping the original text?', relevant: [mp(3), inv], style: 'paraphrase' },
  { question: 'How did word processors democratize writing and affect culture?', relevant: [mp(3), mp(4), inv], style: 'lexical' },
  { question: 'How did word processing help people publish their own books and blogs?', relevant: [mp(4)], style: 'paraphrase' },
  { question: 'Which program helps novelists organise chapters and character notes?', relevant: [mp(4)], style: 'paraphrase' },
  { question: 'Could we one day write documents inside virtual reality?', relevant: [mp(4)], style: 'paraphrase' },
  { question: 'What does the conclusion say about the journey from typewriters to AI platforms?', relevant: [mp(5)], style: 'lexical' },
  { question: 'How much faster is inference with OTSL than with HTML?', relevant: [otsl], style: 'paraphrase' },
  { question: 'Which data set was used for hyper parameter optimization of TableFormer?', relevant: [otsl], style: 'lexical' },
  { question: 'How many samples does FinTabNet contain?', relevant: [otsl], style: 'lexical' },
  { question: 'Does the smaller table structure model lose accuracy on complex tables with spanning cells?', relevant: [otsl], style: 'paraphrase' },
  { question: 'What are the two general types of self-locking nuts?', relevant: [amt], style: 'lexical' },
  { question: 'What material are the wing-type nuts made of?', relevant: [amt], style: 'lexical' },
  { question: 'Which aircraft nut can be turned by hand until it is tightened against a surface?', relevant: [amt], style: 'paraphrase' },
  { question: 'What keeps an elastic stop nut from loosening?', relevant: [amt], style: 'paraphrase' },
  { question: 'Show me the JavaScript program that adds two numbers', relevant: [code(1)], style: 'paraphrase' },
  { question: 'Where is the equation a squared plus eight equals twelve?', relevant: [code(2)], style: 'paraphrase' },
  { question: 'Are there national guidelines for supervising students in university law clinics?', relevant: [legal], style: 'lexical' },
  { question: 'What is the maximum caseload of a public defender lawyer?', relevant: [legal], style: 'paraphrase' },
  { question: '코로나-19 국내 확진자 수', relevant: [kr(1)], style: 'lexical' },
  { question: '생명보험 표준약관 재해분류표', relevant: [kr(2)], style: 'lexical' },
  { question: '신종위험에 대비하는 보험상품 개발', relevant: [kr(4)], style: 'lexical' },
];
