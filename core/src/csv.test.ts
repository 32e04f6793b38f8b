import { describe, expect, it } from 'vitest';
import {
  CSV_FILE_NAMES,
  CsvParseError,
  csvDocument,
  csvHeader,
  csvRow,
  guardFormula,
  parseCsv,
  referrersCsvName,
  spanishDateText,
  toCsv,
  type CsvField,
} from './csv.js';

const cols = [
  { key: 'name', header: 'Name' },
  { key: 'value', header: 'Value' },
] as const;

describe('toCsv', () => {
  it('writes a header and one LF-terminated line per row', () => {
    expect(
      toCsv(cols, [
        { name: 'a', value: 1 },
        { name: 'b', value: 2.5 },
      ]),
    ).toBe('Name,Value\na,1\nb,2.5\n');
  });

  it.each<[string, unknown, string]>([
    ['a separator is quoted', 'a,b', '"a,b"'],
    ['a quote is doubled and quoted', 'say "hi"', '"say ""hi"""'],
    ['a line feed is quoted', 'two\nlines', '"two\nlines"'],
    ['a carriage return inside text is quoted', 'x\ry', '"x\ry"'],
    ['null is an empty field', null, ''],
    ['undefined is an empty field', undefined, ''],
    ['NaN is an empty field', NaN, ''],
    ['Infinity is an empty field', Infinity, ''],
    ['a negative number stays a number', -12.5, '-12.5'],
    ['a negative number written as text stays a number', '-12.5', '-12.5'],
    ['text starting with = gets an apostrophe', '=SUM(A1)', "'=SUM(A1)"],
    ['text starting with + gets an apostrophe', '+33 600', "'+33 600"],
    ['text starting with - gets an apostrophe', '-cmd|calc', "'-cmd|calc"],
    ['text starting with @ gets an apostrophe', '@import', "'@import"],
    ['text starting with a tab gets an apostrophe and quotes', '\tx', `"'\tx"`],
    ['a tab inside text is quoted (spreadsheet import splits on tabs)', 'a\t=1+1', '"a\t=1+1"'],
    ['a semicolon is quoted too (a Spanish spreadsheet splits on it)', 'a;=1+1', '"a;=1+1"'],
    ['text starting with CR gets an apostrophe and quotes', '\rx', '"\'\rx"'],
    ['a guarded formula with a comma is also quoted', '=1,2', '"\'=1,2"'],
    ['ordinary text is written as is', 'zona 7', 'zona 7'],
    ['accents pass through', 'Últimos días', 'Últimos días'],
    ['a boolean is written as text', true, 'true'],
  ])('%s', (_what, value, cell) => {
    expect(toCsv([{ key: 'v', header: 'v' }], [{ v: value }])).toBe(`v\n${cell}\n`);
  });

  it('prefixes a UTF-8 BOM when asked', () => {
    expect(toCsv(cols, [], { bom: true })).toBe('\uFEFFName,Value\n');
  });

  it('uses another separator and quotes it', () => {
    expect(toCsv(cols, [{ name: 'a;b', value: 1 }], { separator: ';' })).toBe('Name;Value\n"a;b";1\n');
  });

  it('can end lines with CRLF', () => {
    expect(toCsv(cols, [{ name: 'a', value: 1 }], { eol: '\r\n' })).toBe('Name,Value\r\na,1\r\n');
  });

  it('guards headers too', () => {
    expect(toCsv([{ key: 'x', header: '=x' }], [])).toBe("'=x\n");
  });

  it('guardFormula leaves plain numbers alone', () => {
    expect([guardFormula('-3'), guardFormula('-1e5'), guardFormula('-3,5')]).toEqual(['-3', '-1e5', "'-3,5"]);
  });
});

describe('CSV dialects', () => {
  type Row = { date: string; seen: string; name: string; amount: number | null; ok: boolean };
  const fields: CsvField<Row>[] = [
    { header: 'Fecha', cell: (r) => r.date, kind: 'date' },
    { header: 'Visto', cell: (r) => r.seen, kind: 'datetime' },
    { header: 'Nombre', cell: (r) => r.name },
    { header: 'Importe', cell: (r) => r.amount },
    { header: 'OK', cell: (r) => r.ok },
  ];
  const row: Row = { date: '2026-11-27', seen: '2026-11-27 09:05', name: 'Zona 7', amount: -1234.5678, ok: true };

  it('standard: commas, decimal points, ISO dates, LF, with a BOM unless asked without', () => {
    expect(csvDocument(fields, [row])).toBe('\uFEFFFecha,Visto,Nombre,Importe,OK\n2026-11-27,2026-11-27 09:05,Zona 7,-1234.5678,true\n');
    expect(csvHeader(fields, { bom: false })).toBe('Fecha,Visto,Nombre,Importe,OK\n');
  });

  it('excel-es: semicolons, decimal commas, dates dd/MM/yyyy, CRLF and always a BOM', () => {
    expect(csvDocument(fields, [row], 'excel-es')).toBe(
      '\uFEFFFecha;Visto;Nombre;Importe;OK\r\n27/11/2026;27/11/2026 09:05;Zona 7;-1234,5678;true\r\n',
    );
    expect(csvHeader(fields, { bom: false, dialect: 'excel-es' }).startsWith('\uFEFF')).toBe(true);
  });

  it('excel-es: numbers never carry binary noise or an exponent; a missing one is an empty cell', () => {
    const line = (amount: number | null) => csvRow(fields, { ...row, amount }, 'excel-es').split(';')[3];
    expect([line(895.3009999999999), line(1e-7), line(null), line(Number.NaN)]).toEqual(['895,301', '0,0000001', '', '']);
  });

  it.each<[string, string, string]>([
    ['a semicolon', 'a;b', '"a;b"'],
    ['a comma', 'a,b', '"a,b"'],
    ['a quote', 'say "hi"', '"say ""hi"""'],
    ['a line feed', 'two\nlines', '"two\nlines"'],
    ['a formula', '=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['a formula after a semicolon', 'x;=1+1', '"x;=1+1"'],
    ['a formula after a tab', 'x\t+1', '"x\t+1"'],
    ['a leading tab', '\t=1+1', `"'\t=1+1"`],
    ['a leading CR', '\r=1+1', `"'\r=1+1"`],
    ['a leading @', '@SUM(1)', "'@SUM(1)"],
    ['a leading minus that is no number here', '-3,5', `"'-3,5"`],
  ])('excel-es: text with %s is written %s', (_what, name, cell) => {
    expect(csvRow(fields, { ...row, name }, 'excel-es')).toBe(`27/11/2026;27/11/2026 09:05;${cell};-1234,5678;true\r\n`);
  });

  it('a date column holding no date keeps its text; an ISO instant reads dd/MM/yyyy HH:mm:ss', () => {
    expect([spanishDateText('-'), spanishDateText('2026-11-27T08:15:00.000Z'), spanishDateText('2026-02-28 23:59')]).toEqual([
      '-',
      '27/11/2026 08:15:00',
      '28/02/2026 23:59',
    ]);
  });

  it('both dialects read back with the parser: the same cells, each number with its decimal mark', () => {
    const tricky = { ...row, name: 'multi\nline; "q", =x' };
    const std = parseCsv(csvDocument(fields, [tricky]));
    const es = parseCsv(csvDocument(fields, [tricky], 'excel-es'), ';');
    expect(std[1]).toEqual(['2026-11-27', '2026-11-27 09:05', 'multi\nline; "q", =x', '-1234.5678', 'true']);
    expect(es[1]).toEqual(['27/11/2026', '27/11/2026 09:05', 'multi\nline; "q", =x', '-1234,5678', 'true']);
  });
});

describe('parseCsv', () => {
  it.each<[string, string, string[][]]>([
    [
      'splits lines and fields',
      'a,b\n1,2\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'accepts CRLF line ends',
      'a,b\r\n1,2\r\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    ['accepts bare CR line ends', 'a\r1', [['a'], ['1']]],
    [
      'reads the last line without a newline',
      'a,b\n1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    ['drops a leading BOM', '\uFEFFa,b\n', [['a', 'b']]],
    ['unquotes fields and undoubles quotes', '"a,b","say ""hi"""\n', [['a,b', 'say "hi"']]],
    [
      'keeps newlines inside quotes',
      '"two\nlines",x\r\n"c\r\nd",y',
      [
        ['two\nlines', 'x'],
        ['c\r\nd', 'y'],
      ],
    ],
    ['keeps empty fields', ',a,,\n', [['', 'a', '', '']]],
    ['keeps a quoted empty field', '""\n', [['']]],
    ['skips blank lines', 'a\n\n\nb\n', [['a'], ['b']]],
    ['returns nothing for empty text', '', []],
    ['keeps a quote inside an unquoted field as text', 'ab"c,d', [['ab"c', 'd']]],
  ])('%s', (_what, text, expected) => {
    expect(parseCsv(text)).toEqual(expected);
  });

  it('reads another separator', () => {
    expect(parseCsv('a;"b;c"\n', ';')).toEqual([['a', 'b;c']]);
  });

  it('reads back what toCsv wrote, BOM included', () => {
    const rows = [
      { name: 'multi\nline, "quoted"', value: 'Ñandú' },
      { name: '', value: 'x\r\ny' },
    ];
    const text = toCsv(cols, rows, { bom: true, eol: '\r\n' });
    expect(parseCsv(text)).toEqual([
      ['Name', 'Value'],
      ['multi\nline, "quoted"', 'Ñandú'],
      ['', 'x\r\ny'],
    ]);
  });

  it('rejects an unterminated quote and names the line it opened on', () => {
    const parse = () => parseCsv('a,b\n1,"open\nstill open');
    expect(parse).toThrow(CsvParseError);
    expect(parse).toThrow(/line 2/);
  });
});

describe('export file names', () => {
  it('match the spec', () => {
    expect(CSV_FILE_NAMES).toEqual({
      dashboard: 'resumen_diario.csv',
      adReport: 'adreport_zonas.csv',
      apiExplorer: 'ad_report.csv',
    });
  });
  it('name a referrers export after its dates', () => {
    expect(referrersCsvName('2026-03-01', '2026-03-07')).toBe('referrers-2026-03-01_to_2026-03-07.csv');
  });
});
