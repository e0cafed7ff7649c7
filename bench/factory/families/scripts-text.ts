/**
 * Native text for the `scripts` family. The corpus is English only, so the names come from ICU
 * through `Intl` (countries, languages, currencies, months, weekdays, dates and numbers as each
 * locale prints them) and the sentences around them are short templates written here, with the
 * Arabic and Hebrew paragraphs of the RTL bench (`bench/quality/rtl/pages.ts`, our own text).
 * Numbers are kept from the ends of right-to-left sentences, where a text layer's bidi order puts
 * the full stop before them. Every string is stripped of the invisible bidi marks ICU adds: they are not printed, so they are
 * not in the truth.
 */
import { RTL_PAGES } from '../../quality/rtl/pages.ts';
import type { Random } from '../../scans/random.ts';

export type ScriptLanguage = 'ar' | 'he' | 'fa' | 'zh' | 'ko';

/** Countries with their currency and main language (ISO codes), named in each locale by ICU. */
export const COUNTRIES: readonly { readonly region: string; readonly currency: string; readonly language: string }[] = [
  { region: 'EG', currency: 'EGP', language: 'ar' },
  { region: 'JP', currency: 'JPY', language: 'ja' },
  { region: 'DE', currency: 'EUR', language: 'de' },
  { region: 'FR', currency: 'EUR', language: 'fr' },
  { region: 'BR', currency: 'BRL', language: 'pt' },
  { region: 'IN', currency: 'INR', language: 'hi' },
  { region: 'CN', currency: 'CNY', language: 'zh' },
  { region: 'KR', currency: 'KRW', language: 'ko' },
  { region: 'IL', currency: 'ILS', language: 'he' },
  { region: 'IR', currency: 'IRR', language: 'fa' },
  { region: 'SA', currency: 'SAR', language: 'ar' },
  { region: 'MX', currency: 'MXN', language: 'es' },
  { region: 'GB', currency: 'GBP', language: 'en' },
  { region: 'TR', currency: 'TRY', language: 'tr' },
  { region: 'RU', currency: 'RUB', language: 'ru' },
  { region: 'ID', currency: 'IDR', language: 'id' },
  { region: 'KE', currency: 'KES', language: 'sw' },
  { region: 'IT', currency: 'EUR', language: 'it' },
  { region: 'SE', currency: 'SEK', language: 'sv' },
  { region: 'PL', currency: 'PLN', language: 'pl' },
  { region: 'TH', currency: 'THB', language: 'th' },
  { region: 'VN', currency: 'VND', language: 'vi' },
  { region: 'MA', currency: 'MAD', language: 'ar' },
  { region: 'CH', currency: 'CHF', language: 'de' },
  { region: 'NL', currency: 'EUR', language: 'nl' },
];

/** Words a form or report needs, per language (written here; simple and standard). */
export interface Words {
  readonly name: string;
  readonly country: string;
  readonly city: string;
  readonly currency: string;
  readonly language: string;
  readonly date: string;
  readonly amount: string;
  readonly reference: string;
  readonly notes: string;
  readonly total: string;
  readonly phone: string;
  /** The issuing unit, printed as the running head. */
  readonly unit: string;
  /** Separator between a label and its value, with its space (`: `), or the full-width `：` alone. */
  readonly colon: string;
  /** Section headings of a report. */
  readonly headings: readonly string[];
  /** Form titles and report titles. */
  readonly formTitles: readonly string[];
  readonly reportTitles: readonly string[];
  /** People's names for forms. */
  readonly people: readonly string[];
  /** Sentence templates: `{country}`, `{currency}`, `{language}`, `{date}`, `{amount}`, `{month}`, `{n}`. */
  readonly sentences: readonly string[];
  /** Form instructions. */
  readonly instructions: readonly string[];
  /** Page numbers as printed: text and Chromium template (`N`, `M` become its spans). */
  readonly pageLabel: string;
}

export const WORDS: Readonly<Record<ScriptLanguage, Words>> = {
  ar: {
    name: 'الاسم',
    country: 'الدولة',
    city: 'المدينة',
    currency: 'العملة',
    language: 'اللغة',
    date: 'التاريخ',
    amount: 'المبلغ',
    reference: 'الرقم المرجعي',
    notes: 'ملاحظات',
    total: 'المجموع',
    phone: 'رقم الهاتف',
    unit: 'قسم البيانات الدولية',
    colon: ': ',
    headings: ['مقدمة', 'النتائج', 'ملخص', 'البيانات', 'التوصيات', 'الخلاصة'],
    formTitles: ['استمارة طلب', 'نموذج تسجيل', 'طلب تحويل مالي'],
    reportTitles: ['التقرير الشهري', 'تقرير البيانات الدولية', 'تقرير الأداء'],
    people: ['أحمد المصري', 'فاطمة الحسن', 'يوسف العلي', 'مريم خالد', 'ليلى إبراهيم', 'عمر سعيد'],
    sentences: [
      'يعرض الجدول التالي بيانات {n} دول مع عملاتها ولغاتها.',
      'بتاريخ {date} تم إعداد هذا التقرير.',
      'بلغ إجمالي المبلغ {amount} في نهاية شهر {month}.',
      'تعتمد {country} على {currency} في المعاملات اليومية.',
      'اللغة الرسمية في {country} هي {language}.',
      'ستتم مراجعة الأرقام مرة أخرى في شهر {month}.',
      'تضم القائمة {n} دول من مناطق مختلفة.',
      'سجلت {country} أعلى قيمة في شهر {month}.',
      'يتم تحديث هذه البيانات في بداية كل شهر.',
    ],
    instructions: ['قبل {date} يرجى ملء جميع الحقول.', 'يرجى كتابة البيانات بخط واضح.'],
    pageLabel: 'صفحة N من M',
  },
  he: {
    name: 'שם',
    country: 'מדינה',
    city: 'עיר',
    currency: 'מטבע',
    language: 'שפה',
    date: 'תאריך',
    amount: 'סכום',
    reference: 'מספר אסמכתא',
    notes: 'הערות',
    total: 'סך הכול',
    phone: 'טלפון',
    unit: 'מחלקת תפעול',
    colon: ': ',
    headings: ['נושאים לדיון', 'החלטות', 'משימות', 'הערות', 'נתונים'],
    formTitles: ['טופס בקשה', 'טופס הרשמה'],
    reportTitles: ['סיכום פגישת הצוות', 'סיכום פגישה', 'פרוטוקול ישיבה'],
    people: ['נועה כהן', 'דוד לוי', 'מיכל אברהם', 'יוסי מזרחי', 'רונית פרץ', 'אבי ביטון'],
    sentences: [
      'בתאריך {date} התקיימה הפגישה.',
      'המטבע הרשמי של {country} הוא {currency}.',
      'השפה הרשמית של {country} היא {language}.',
      'הישיבה הבאה תתקיים בחודש {month}.',
      'סכום של {amount} אושר בתקציב.',
      'נבדקו נתונים של {n} מדינות.',
      'הנתונים מתעדכנים בתחילת כל חודש.',
      'הערך הגבוה ביותר נרשם בחודש {month}.',
      'כל המשתתפים קיבלו עותק של הסיכום.',
    ],
    instructions: ['עד {date} יש למלא את כל השדות.', 'יש לצרף את כל המסמכים הנדרשים.'],
    pageLabel: 'עמוד N מתוך M',
  },
  fa: {
    name: 'نام',
    country: 'کشور',
    city: 'شهر',
    currency: 'واحد پول',
    language: 'زبان',
    date: 'تاریخ',
    amount: 'مبلغ',
    reference: 'شماره پیگیری',
    notes: 'توضیحات',
    total: 'جمع کل',
    phone: 'شماره تلفن',
    unit: 'واحد اطلاعات',
    colon: ': ',
    headings: ['مقدمه', 'اطلاعات', 'نتایج', 'خلاصه'],
    formTitles: ['فرم درخواست', 'فرم ثبت نام', 'فرم پرداخت'],
    reportTitles: ['گزارش ماهانه', 'گزارش اطلاعات'],
    people: ['مریم احمدی', 'علی رضایی', 'زهرا محمدی', 'حسین کریمی', 'سارا حسینی'],
    sentences: [
      'واحد پول {country} {currency} است.',
      'زبان رسمی {country} {language} است.',
      'مبلغ کل {amount} است.',
      'این فرم در تاریخ {date} تکمیل شد.',
      'گزارش بعدی در ماه {month} منتشر می شود.',
      'این اطلاعات هر ماه بررسی می شود.',
      'بیشترین مقدار در ماه {month} ثبت شد.',
    ],
    instructions: ['لطفاً فرم را تا تاریخ {date} تکمیل کنید.', 'لطفاً اطلاعات را با دقت وارد کنید.'],
    pageLabel: 'صفحه N از M',
  },
  zh: {
    name: '名称',
    country: '国家',
    city: '城市',
    currency: '货币',
    language: '语言',
    date: '日期',
    amount: '金额',
    reference: '编号',
    notes: '备注',
    total: '合计',
    phone: '电话',
    unit: '国际数据部',
    colon: '：',
    headings: ['概述', '主要数据', '各国货币', '语言分布', '结论', '附录'],
    formTitles: ['申请表', '登记表'],
    reportTitles: ['年度报告', '季度数据报告', '各国货币与语言概览'],
    people: ['王芳', '李伟', '张敏', '刘洋', '陈静', '杨磊'],
    sentences: [
      '本报告汇总了{n}个国家的主要数据。',
      '{country}的官方货币是{currency}。',
      '{country}的主要语言是{language}。',
      '本报告编制于{date}。',
      '截至{month}底，总金额为{amount}。',
      '下表列出了各国的货币和语言。',
      '数据每月初更新一次。',
      '{country}在{month}的数值最高。',
      '所有金额均保留两位小数。',
    ],
    instructions: ['请于{date}前填写所有项目。', '请用正楷填写。'],
    pageLabel: '第 N 页，共 M 页',
  },
  ko: {
    name: '이름',
    country: '국가',
    city: '도시',
    currency: '통화',
    language: '언어',
    date: '날짜',
    amount: '금액',
    reference: '참조 번호',
    notes: '비고',
    total: '합계',
    phone: '전화번호',
    unit: '국제자료팀',
    colon: ': ',
    headings: ['개요', '주요 내용', '통화 정보', '결론'],
    formTitles: ['신청서', '등록 신청서', '송금 신청서'],
    reportTitles: ['월간 보고서', '국가별 자료'],
    people: ['김민수', '이지은', '박서준', '최유진', '정하늘', '강도윤'],
    sentences: [
      '{country}의 공식 통화는 {currency}입니다.',
      '{country}의 공용어는 {language}입니다.',
      '신청 마감일은 {date}입니다.',
      '총 금액은 {amount}입니다.',
      '다음 보고서는 {month}에 발표됩니다.',
      '자료는 매월 초에 갱신됩니다.',
      '가장 높은 값은 {month}에 기록되었습니다.',
      '모든 금액은 소수점 둘째 자리까지 표시됩니다.',
    ],
    instructions: ['아래 항목을 모두 작성해 주십시오.', '신청 마감일은 {date}입니다.'],
    pageLabel: 'N / M 페이지',
  },
};

/** The RTL bench's own paragraphs for a language (Arabic and Hebrew reports reuse them). */
export function benchParagraphs(language: ScriptLanguage): string[] {
  const name = language === 'ar' ? 'rtl-arabic-report' : language === 'he' ? 'rtl-hebrew-notes' : '';
  return [...(RTL_PAGES.find((p) => p.name === name)?.paragraphs ?? [])];
}

/** ICU's output without the bidi marks it adds (not printed) and with plain spaces for its no-break ones. */
export const clean = (text: string): string => text.replace(/[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g, '').replace(/[\u00a0\u202f]/g, ' ');

/** Names and numbers as `locale` prints them. */
export interface Namer {
  region(code: string): string;
  language(code: string): string;
  currency(code: string): string;
  month(index: number): string;
  date(d: Date): string;
  number(n: number, decimals: number): string;
  /** An integer without grouping (reference and phone numbers) in the locale's digits. */
  digits(n: number): string;
}

export function namer(locale: string): Namer {
  const regions = new Intl.DisplayNames([locale], { type: 'region' });
  const languages = new Intl.DisplayNames([locale], { type: 'language' });
  const currencies = new Intl.DisplayNames([locale], { type: 'currency' });
  const months = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  return {
    region: (c) => clean(regions.of(c) ?? c),
    language: (c) => clean(languages.of(c) ?? c),
    currency: (c) => clean(currencies.of(c) ?? c),
    month: (i) => clean(months.format(new Date(Date.UTC(2026, i, 1)))),
    date: (d) => clean(dates.format(d)),
    number: (n, decimals) => clean(new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(n)),
    digits: (n) => clean(new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 0 }).format(n)),
  };
}

/** `pool` in an order drawn from `random` (Fisher–Yates). */
export function shuffle<T>(random: Random, pool: readonly T[]): T[] {
  const out = [...pool];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A date in 2024–2027 drawn from `random`. */
export const drawDate = (random: Random): Date =>
  new Date(Date.UTC(2024 + Math.floor(random.next() * 4), Math.floor(random.next() * 12), 1 + Math.floor(random.next() * 28)));

/** A sentence template filled with names and numbers drawn for it. */
export function fill(template: string, random: Random, names: Namer): string {
  const c = random.pick(COUNTRIES);
  return template
    .replace('{country}', names.region(c.region))
    .replace('{currency}', names.currency(c.currency))
    .replace('{language}', names.language(c.language))
    .replace('{date}', names.date(drawDate(random)))
    .replace('{amount}', names.number(1000 + random.next() * 900000, 2))
    .replace('{month}', names.month(Math.floor(random.next() * 12)))
    .replace('{n}', names.number(3 + Math.floor(random.next() * 7), 0));
}
