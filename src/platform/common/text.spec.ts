import { cleanFileName, firstCharacters, withoutHiddenCharacters } from './text';

describe('hidden characters', () => {
  it('strips every format character (Cf), control (Cc) and lone surrogate (Cs), and nothing else', () => {
    const format = [
      '\u00AD', // soft hyphen
      '\u0600', // Arabic number sign
      '\u061C', // Arabic letter mark
      '\u06DD',
      '\u070F',
      '\u180E', // Mongolian vowel separator
      '\u200B', // zero-width space
      '\u200C', // zero-width non-joiner
      '\u200D', // zero-width joiner
      '\u200E', // left-to-right mark
      '\u200F', // right-to-left mark
      '\u202A', // bidi embeddings and overrides…
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2060', // word joiner
      '\u2061',
      '\u2064',
      '\u2066', // bidi isolates…
      '\u2067',
      '\u2068',
      '\u2069',
      '\u206A',
      '\u206F',
      '\uFEFF', // byte order mark
      '\uFFF9', // interlinear annotation
      '\uFFFB',
      '\u{110BD}',
      '\u{1D173}',
      '\u{E0001}', // language tag
      '\u{E0020}', // tag characters
      '\u{E007F}',
    ];
    const controls = ['\u0000', '\u0009', '\u000A', '\u001B', '\u007F', '\u0080', '\u0085', '\u009B', '\u009F'];
    const surrogates = ['\uD800', '\uDFFF'];
    for (const c of [...format, ...controls, ...surrogates]) {
      expect({ c: c.codePointAt(0)!.toString(16), out: withoutHiddenCharacters(`a${c}b`) }).toEqual({
        c: c.codePointAt(0)!.toString(16),
        out: 'ab',
      });
    }
    const kept = 'Ünïcødé ĳ ß Ωμέγα кириллица 中文 日本語 한국어 עברית العربية हिन्दी 😀 👩‍💻'.replace('\u200D', '');
    expect(withoutHiddenCharacters(kept)).toBe(kept);
    expect(withoutHiddenCharacters('👩\u200D💻')).toBe('👩💻');
  });

  it('cuts by characters, never inside a surrogate pair', () => {
    expect(firstCharacters('ab😀c', 3)).toBe('ab😀');
    expect(firstCharacters('ab😀c', 2)).toBe('ab');
    expect(firstCharacters('abc', 5)).toBe('abc');
  });
});

describe('cleanFileName', () => {
  it.each([
    ['scan\u202Egpj.exe.jpg', 'scangpj.exe.jpg'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\a\\passport.png', 'passport.png'],
    ['"quoted".pdf', 'quoted.pdf'],
    ['  spaced name.png  ', 'spaced name.png'],
    ['\u2066\u2069', 'file'],
    ['dir/', 'file'],
    [`${'x'.repeat(199)}😀😀`, `${'x'.repeat(199)}😀`],
  ])('%j → %j', (filename, name) => {
    expect(cleanFileName(filename)).toBe(name);
  });
});
