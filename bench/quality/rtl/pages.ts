/**
 * Right-to-left test pages we wrote ourselves (Arabic, Hebrew, mixed with Latin and numbers), for
 * `--set rtl`. Each page is rendered by pango (`pango-view`, a shaping renderer from Debian's
 * pango1.0-tools) by `make.ts`; the text here is the ground truth.
 */

export interface RtlPage {
  readonly name: string;
  readonly title: string;
  readonly paragraphs: readonly string[];
  /** Base direction of the page. */
  readonly dir: 'rtl' | 'ltr';
}

export const RTL_PAGES: readonly RtlPage[] = [
  {
    name: 'rtl-arabic-report',
    dir: 'rtl',
    title: 'تقرير الأداء السنوي لعام 2025',
    paragraphs: [
      'يعرض هذا التقرير نتائج العمل خلال العام الماضي، ويشمل ذلك الإيرادات والمصروفات وخطط التطوير. ارتفعت المبيعات بنسبة 12% مقارنة بالعام السابق، كما تم إطلاق منصة جديدة باسم Folio لمعالجة المستندات.',
      'لا تزال الأولوية الأولى هي تحسين جودة الخدمة للعملاء، ولذلك قررت الإدارة زيادة الاستثمار في التدريب والبحث العلمي. وقد شارك أكثر من 300 موظف في ورش العمل التي نظمت في القاهرة والرياض ودبي.',
    ],
  },
  {
    name: 'rtl-hebrew-notes',
    dir: 'rtl',
    title: 'סיכום פגישת הצוות',
    paragraphs: [
      'בפגישה השבועית דנו בתוכנית העבודה לרבעון הבא. הוחלט להעביר את מערכת הגיבוי לשרת חדש עד סוף החודש, ולבדוק את ביצועי מסד הנתונים PostgreSQL לפני ההעברה.',
      'המשימות העיקריות הן עדכון התיעוד, כתיבת בדיקות אוטומטיות ושיפור זמני התגובה של הממשק. הישיבה הבאה תתקיים ביום שלישי בשעה 10:00 בחדר הישיבות.',
    ],
  },
  {
    name: 'rtl-mixed-glossary',
    dir: 'ltr',
    title: 'A short glossary of reading directions',
    paragraphs: [
      'The Arabic word for library is مكتبة and the Hebrew word is ספרייה; both scripts are read from right to left, while numbers such as 2025 keep their usual order.',
      'في هذا المثال نكتب جملة عربية تحتوي على كلمة English وعلى رقم الإصدار 3.5 من البرنامج، ثم نعود إلى النص العربي حتى نهاية السطر.',
    ],
  },
];

/** The reference Markdown of a page. */
export function groundTruth(page: RtlPage): string {
  return `${[`## ${page.title}`, ...page.paragraphs].join('\n\n')}\n`;
}
