/** `readHtmlPage`: a crawled page's main content as Markdown, and what the crawler needs from it. */
import assert from 'node:assert/strict';
import { readHtmlPage } from '../../connector/html-page.ts';

describe('readHtmlPage', () => {
  it('should keep the main content as Markdown and leave scripts, styles and navigation out', async () => {
    const page = await readHtmlPage(
      `<!doctype html><html><head><title>Travel policy</title><style>p{}</style><script>alert(1)</script></head>
       <body><nav><a href="/">Home</a></nav><header>Site banner</header>
       <main><h1>Travel</h1><p>Book <b>two weeks</b> ahead.<br>Economy class only.</p>
       <ul><li>Trains first</li><li>Flights over 500 km</li></ul><ol><li>Ask</li><li>Book</li></ol>
       <pre>rate = 0.30 € / km</pre><table><tr><th>Zone</th><th>Per diem</th></tr><tr><td>A</td><td>40</td></tr></table>
       <blockquote><p>Quoted rule.</p></blockquote><p># not a heading, 1. not a list, &lt;b&gt; not a tag</p></main>
       <footer>© Corp</footer></body></html>`,
      'https://intranet.example/policies/travel.html',
    );
    assert.equal(page.title, 'Travel policy');
    assert.equal(
      page.markdown,
      [
        '# Travel',
        'Book two weeks ahead.  \nEconomy class only.',
        '- Trains first\n- Flights over 500 km',
        '1. Ask\n2. Book',
        '```\nrate = 0.30 € / km\n```',
        '<table><tbody><tr><th>Zone</th><th>Per diem</th></tr><tr><td>A</td><td>40</td></tr></tbody></table>',
        '> Quoted rule.',
        '\\# not a heading, 1. not a list, &lt;b> not a tag',
      ].join('\n\n'),
    );
    assert.deepEqual(page.links, ['https://intranet.example/']);
  });

  it('should read every article of a page that has several, and the one of a page that has one', async () => {
    const index = await readHtmlPage(
      '<header>Blog</header><article><h2>One</h2><p>First.</p></article><article><h2>Two</h2><p>Second.</p></article>',
      'https://a.example/',
    );
    assert.equal(index.markdown, '## One\n\nFirst.\n\n## Two\n\nSecond.');
    const post = await readHtmlPage('<header>Blog</header><article><h1>Post</h1><footer>tags</footer></article><aside>More</aside>', 'https://a.example/p');
    assert.equal(post.markdown, '# Post\n\ntags');
  });

  it('should read links against <base>, canonical, and robots directives', async () => {
    const page = await readHtmlPage(
      `<html><head><base href="https://intranet.example/docs/"><link rel="canonical" href="guide.html"><meta name="robots" content="noindex, follow"></head>
       <body><a href="a.html#x">a</a><a href="a.html">again</a><a href="mailto:x@y">mail</a><a rel="nofollow" href="b.html">b</a><p>Text</p></body></html>`,
      'https://intranet.example/other/page.html?x=1',
    );
    assert.equal(page.canonical, 'https://intranet.example/docs/guide.html');
    assert.deepEqual(page.links, ['https://intranet.example/docs/a.html']);
    assert.equal(page.noindex, true);
    assert.equal(page.nofollow, false);
    assert.equal((await readHtmlPage('<meta name="robots" content="none"><p>x</p>', 'https://a.example/')).nofollow, true);
  });
});
