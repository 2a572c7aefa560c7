//! End-to-end tests of manuscripts in the language server: a chapter in
//! plain text and one in LaTeX, served by the real `chess-ls` binary over
//! stdio: diagnostics at their places in the prose, the board of a run that
//! goes on from an earlier one, the quick-fix of scanning damage, and
//! completion while a run is being typed.

use chess_ls_tests::lsp_client::{Client, codes, position_after, pretty, range};
use serde_json::{Value, json};

const CHAPTER: &str = "Глава 1.\n\nПартия началась так: 1. e4 e5 2. Кf3 Кc6 3. Сb5, и чёрные ответили\n\n3...a6 4. Сa4 Кf6. Затем 5. 0-0 Сe7 6. Л e1.\n\nВ другой партии 23. Фh5 решило дело.\n";

#[test]
fn a_plain_text_chapter_gets_diagnostics_hover_quickfix_and_completion() {
    let uri = "file:///book/chapter-1.txt";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open_as(uri, "plaintext", CHAPTER);

    // The broken move and the run from another game; nothing in the prose.
    let params = client.diagnostics(uri, 1);
    assert_eq!(codes(&params), ["space-in-move", "unchecked"], "{params}");
    insta::assert_snapshot!("chapter_diagnostics", pretty(&params));
    let (line, col) = position_after(CHAPTER, "Л e1", 0);
    assert_eq!(params["diagnostics"][0]["range"], range(line, col, col + 4));

    // Hover on `4. Сa4`, in a run that goes on from the paragraph before.
    let (hl, hc) = position_after(CHAPTER, "Сa4", 0);
    let hover = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": hl, "character": hc + 1}}),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("English SAN **Ba4**"), "{value}");
    assert!(value.contains("r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 4"), "{value}");
    insta::assert_snapshot!("hover_in_a_run_that_goes_on", pretty(&hover));
    // Hover on `6. Л e1`, broken by a space: on its letter and on its
    // square, the board after 6. Лe1, over the move (with its number) as
    // written.
    for at in [0, 3] {
        let hover = client.call(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col + at}}),
        );
        let value = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(value.contains("English SAN **Re1**"), "at +{at}: {hover}");
        assert_eq!(hover["range"], range(line, col - 3, col + 4), "at +{at}");
    }
    // The prose has no hover.
    let (pl, pc) = position_after(CHAPTER, "ответили", 0);
    let prose = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": pl, "character": pc + 1}}),
    );
    assert!(prose.is_null(), "{prose}");

    // The quick-fix joins the move.
    let actions = client.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range(line, col + 1, col + 1), "context": {"diagnostics": [], "only": ["quickfix"]}}),
    );
    let preferred: Vec<&Value> = actions.as_array().unwrap().iter().filter(|a| a["isPreferred"] == true).collect();
    assert_eq!(preferred.len(), 1, "{actions}");
    let edits = preferred[0]["edit"]["changes"][uri].as_array().unwrap().clone();
    assert_eq!(edits, [json!({"range": range(line, col, col + 4), "newText": "Лe1"})]);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": edits.iter().map(|e| json!({"range": e["range"], "text": e["newText"]})).collect::<Vec<_>>()}),
    );
    assert_eq!(codes(&client.diagnostics(uri, 2)), ["unchecked"]);

    // Typing on after the run: ` b5 7. С` offers the bishop's moves in
    // Russian, from the position the run reached.
    let text = CHAPTER.replace("Л e1", "Лe1");
    let (el, ec) = position_after(&text, "Лe1.", 0);
    let at = ec + 3;
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"range": range(el, at, at + 1), "text": " b5 7. С"}]}),
    );
    let _ = client.diagnostics(uri, 3);
    let completion = client.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": el, "character": at + 8}}),
    );
    let labels: Vec<&str> = completion.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"Сb3"), "{labels:?}");
    assert!(labels.iter().all(|l| l.starts_with('С')), "{labels:?}");
    // In the prose: nothing.
    let in_prose = client.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": pl, "character": pc + 1}}),
    );
    assert!(in_prose.is_null(), "{in_prose}");

    // Typing in the prose changes nothing.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"range": range(0, 0, 0), "text": "Предисловие: о годе 1995. и прочем.\n"}]}),
    );
    let params = client.diagnostics(uri, 4);
    assert!(codes(&params).iter().all(|c| c == "unchecked" || c == "illegal-move"), "{params}");
    assert!(client.shutdown().success());
}

#[test]
fn a_latex_chapter_follows_its_macros() {
    let uri = "file:///book/kapitel.tex";
    let text = "\\newchessgame\n\\mainline{1. e4 e5 2. Sf3 Sc6}\n\nText mit 3. Lb5 und \\variation{3. Lc4 Lc5 4. Lxf7}.\n% 1. e4 e5 2. Ke2 im Kommentar\n\\mainline{3... a6 4. La4}\n";
    let mut client = Client::start();
    client.initialize(&["utf-8"], json!({}));
    client.open_as(uri, "latex", text);
    let params = client.diagnostics(uri, 1);
    // `4. Lxf7` in the variation is legal (a capture on f7); the only
    // finding would be in the comment, which is not read.
    assert!(codes(&params).is_empty(), "{params}");
    // Break the variation: `4. Lxf6` captures nothing there.
    let (line, col) = position_after(text, "Lxf7", 0);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": range(line, col + 3, col + 4), "text": "6"}]}),
    );
    let params = client.diagnostics(uri, 2);
    assert_eq!(codes(&params), ["illegal-move"], "{params}");
    assert_eq!(params["diagnostics"][0]["range"], range(line, col, col + 4));
    // A `.txt` file opened as plain text and a `.tex` file with an unknown
    // language id are manuscripts too.
    client.open_as("file:///notes.txt", "plaintext", "Only prose, and 1995. Nothing else.\n");
    assert!(codes(&client.diagnostics("file:///notes.txt", 1)).is_empty());
    client.open_as("file:///x.tex", "unknown", "\\mainline{1. e4 e5 2. Ke3}\n");
    assert_eq!(codes(&client.diagnostics("file:///x.tex", 1)), ["illegal-move"]);
    assert!(client.shutdown().success());
}

/// A chapter's outline: its headings as parents, under each the games told
/// there, one entry per game (a game told across paragraphs is one), a
/// fenced game named by its players; in LaTeX its sections likewise.
#[test]
fn a_chapters_outline_has_its_headings_with_one_entry_per_game_under_them() {
    let md = "# Chapter 1\n\nThe game began 1. e4 e5 2. Nf3 Nc6 and then\n\n3. Bb5 a6 4. Ba4 Nf6 followed.\n\nLater 5. O-O Be7 was played.\n\n## A second game\n\n```pgn\n[White \"Anna\"]\n[Black \"Boris\"]\n[Event \"Cup\"]\n[Result \"1-0\"]\n\n1. d4 d5 2. c4 1-0\n```\n\n# Chapter 2\n\nHere 1. c4 e5 2. Nc3 Nf6 is the English.\n";
    let uri = "file:///book/chapter.md";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open_as(uri, "markdown", md);
    let _ = client.diagnostics(uri, 1);
    let symbols = client.call("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    fn tree(symbols: &Value) -> Vec<String> {
        symbols
            .as_array()
            .unwrap()
            .iter()
            .map(|s| match s.get("children").filter(|c| c.is_array()) {
                Some(children) => format!("{} [{}]", s["name"].as_str().unwrap(), tree(children).join(", ")),
                None => s["name"].as_str().unwrap().to_owned(),
            })
            .collect()
    }
    assert_eq!(
        tree(&symbols),
        // (Numbered in the chapter's order: the fenced game is its second.)
        ["Chapter 1 [Game 1, A second game [Anna - Boris, Cup, 1-0]]", "Chapter 2 [Game 3]"],
        "{symbols}"
    );
    // The one game of chapter 1 runs from its first run to its last.
    let game = &symbols[0]["children"][0];
    assert_eq!(game["range"]["start"]["line"], 2, "{game}");
    assert_eq!(game["range"]["end"]["line"], 6, "{game}");

    let tex = "\\section{Opening}\nAfter 1. e4 e5 2. Sf3 Sc6 the knight.\n\\subsection{Later}\nThen 3. Lb5 a6 followed.\n\\section{Other}\n\\mainline{1. d4 d5}\n";
    let tex_uri = "file:///book/kapitel.tex";
    client.open_as(tex_uri, "latex", tex);
    let _ = client.diagnostics(tex_uri, 1);
    let symbols = client.call("textDocument/documentSymbol", json!({"textDocument": {"uri": tex_uri}}));
    assert_eq!(tree(&symbols), ["Opening [Game 1, Later [Game 1 (continued)]]", "Other [Game 2]"], "{symbols}");
    assert!(client.shutdown().success());
}

/// "Translate this game" in a Markdown chapter covers the game however
/// many paragraphs it is told in (every run that goes on from the one
/// before), not only the run at the cursor; another game of the chapter is
/// left alone.
#[test]
fn translating_this_game_in_a_chapter_takes_every_run_of_it() {
    let md = "# Chapter\n\nThe game began 1. e4 e5 2. Nf3 Nc6 and then\n\n3. Bb5 a6 4. Ba4 Nf6 followed,\n\nand 5. O-O Be7 6. Re1 b5 7. Bb3 d6 ended it.\n\nAnother game: 1. d4 Nf6 2. c4 e6 3. Nc3 Bb4.\n";
    let uri = "file:///book/chapter.md";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open_as(uri, "markdown", md);
    let _ = client.diagnostics(uri, 1);
    let (line, col) = position_after(md, "Ba4", 0);
    let actions = client.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range(line, col, col), "context": {"diagnostics": [], "only": ["source.chess-ls.translate.ru.game"]}}),
    );
    let action = actions
        .as_array()
        .expect("actions")
        .iter()
        .find(|a| a["title"] == "Translate this game to Russian")
        .unwrap_or_else(|| panic!("{actions}"));
    let action =
        if action["edit"].is_null() { client.call("codeAction/resolve", action.clone()) } else { action.clone() };
    let edits = action["edit"]["changes"][uri].as_array().expect("edits").clone();
    // Apply them: every piece move of the three paragraphs is Russian, the
    // other game is as it was.
    let mut text = md.to_owned();
    let offset = |text: &str, p: &Value| -> usize {
        let line = p["line"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let column = p["character"].as_u64().unwrap() as usize;
        start
            + text[start..]
                .chars()
                .take_while({
                    let mut n = 0;
                    move |c| {
                        let fits = n < column;
                        n += c.len_utf16();
                        fits
                    }
                })
                .map(char::len_utf8)
                .sum::<usize>()
    };
    let mut sorted = edits.clone();
    sorted.sort_by_key(|e| {
        std::cmp::Reverse((e["range"]["start"]["line"].as_u64(), e["range"]["start"]["character"].as_u64()))
    });
    for e in &sorted {
        let (a, b) = (offset(&text, &e["range"]["start"]), offset(&text, &e["range"]["end"]));
        text.replace_range(a..b, e["newText"].as_str().unwrap());
    }
    for translated in ["Кf3 Кc6", "Сb5", "Сa4 Кf6", "Сe7", "Лe1", "Сb3"] {
        assert!(text.contains(translated), "{translated} in {text}");
    }
    assert!(text.contains("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4"), "the other game is left alone: {text}");
    assert!(client.shutdown().success());
}

/// Format Document in a LaTeX chapter: its runs and `\\mainline{...}`
/// stand in the prose, whose lines are the author's; nothing is changed and
/// the user is told why (window/showMessage), not left with silence.
#[test]
fn formatting_a_latex_chapter_changes_nothing_and_says_why() {
    let uri = "file:///book/kapitel.tex";
    let text = "\\mainline{1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. O-O Le7 6. Te1 b5 7. Lb3 d6 8. c3 O-O 9. h3 Sb8 10. d4 Sbd7}\n";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open_as(uri, "latex", text);
    let _ = client.diagnostics(uri, 1);
    let edits = client.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert!(edits.is_null(), "{edits}");
    // The message may come just before or just after the answer.
    let is_shown = |n: &Value| n["method"] == "window/showMessage";
    let shown = client
        .notifications
        .iter()
        .find(|n| is_shown(n))
        .cloned()
        .or_else(|| client.wait_for(is_shown))
        .expect("a message shown");
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(message.contains("1 run of moves in the prose is left as written"), "{message}");
    assert_eq!(shown["params"]["type"], 3, "an info");
    assert!(client.shutdown().success());
}

/// A client that sends one `languageId` for every file it serves (Emacs
/// eglot 1.9 sends `pgn`): a `.tex`, `.md` or `.txt` chapter is still read
/// as the manuscript its extension says, its prose never a syntax error; a
/// `.pgn` file stays notation.
#[test]
fn a_client_that_says_pgn_for_every_file_gets_manuscripts_by_their_extension() {
    let tex = "\\section{Die Eröffnung}\nIn dieser Partie kam nach 1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Lxf6 die Frage auf,\nob Weiß besser rochiert hätte.\n\\mainline{1. d4 d5 2. c4 e6}\n";
    let md = "# Chapter 1\n\nAfter 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxf6 White had to think again.\n\n```pgn\n1. d4 d5 2. c4 e6\n```\n";
    let txt = "Chapter 1.\n\nThe game went 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxf6 and the rest was prose.\n";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    for (uri, text) in
        [("file:///book/kapitel.tex", tex), ("file:///book/chapter.md", md), ("file:///book/chapter.txt", txt)]
    {
        client.open_as(uri, "pgn", text);
        let params = client.diagnostics(uri, 1);
        // The one wrong move (the bishop takes on f6 from a4/b5: nothing
        // there to take, or no bishop that reaches): one finding, not one
        // per prose word.
        assert_eq!(codes(&params), ["illegal-move"], "{uri}: {params}");
        let (line, col) = position_after(text, "xf6", 0);
        assert_eq!(params["diagnostics"][0]["range"]["start"]["line"], line, "{uri}");
        assert_eq!(params["diagnostics"][0]["range"]["end"]["character"], col + 3, "{uri}: {params}");
    }
    // A notation file with the same id is notation: its prose-like words
    // are syntax errors there.
    client.open_as("file:///games.pgn", "pgn", "1. e4 e5 2. Nf3 Nc6 *\n");
    assert!(codes(&client.diagnostics("file:///games.pgn", 1)).is_empty());
    client.open_as("file:///bad.pgn", "pgn", "After 1. e4 e5 White had to think.\n");
    assert!(!codes(&client.diagnostics("file:///bad.pgn", 1)).is_empty());
    assert!(client.shutdown().success());
}

#[test]
fn an_edit_that_makes_the_book_polish_reads_its_earlier_run_in_polish() {
    // `b8` lost the rook's letter in a run whose letters (`S`) German and
    // Polish read alike. The run after it is German, so the book is, and
    // the fix is `Tb8`; made Polish, the book is Polish and the fix `Wb8`,
    // as in a fresh open of the edited text.
    let text =
        "Partia: 1. e4 e5 2. Sf3 Sc6 3. Sc3 Sd4 4. d3 b8 5. Sxd4 exd4 6. Se2 d6.\n\nDann 7. Lg5 Le7 8. Dd2 h6.\n";
    let uri = "file:///book/partia.txt";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open_as(uri, "plaintext", text);
    let (line, col) = position_after(text, "b8", 0);
    let preferred_fix = |client: &mut Client, uri: &str| {
        let actions = client.call(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range(line, col, col), "context": {"diagnostics": [], "only": ["quickfix"]}}),
        );
        let preferred: Vec<&Value> = actions.as_array().unwrap().iter().filter(|a| a["isPreferred"] == true).collect();
        assert_eq!(preferred.len(), 1, "{actions}");
        preferred[0]["edit"]["changes"][uri][0]["newText"].as_str().unwrap().to_owned()
    };
    let opened = client.diagnostics(uri, 1);
    assert_eq!(codes(&opened).len(), 1, "{opened}");
    assert_eq!(preferred_fix(&mut client, uri), "Tb8");

    let (el, ec) = position_after(text, "7. Lg5 Le7 8. Dd2", 0);
    let polish = "Gg5 Ge7 8. Hd2";
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": range(el, ec + 3, ec + 17), "text": polish}]}),
    );
    let edited = client.diagnostics(uri, 2);
    assert_eq!(preferred_fix(&mut client, uri), "Wb8");
    let after = text.replace("Lg5 Le7 8. Dd2", polish);
    let fresh_uri = "file:///book/partia-fresh.txt";
    client.open_as(fresh_uri, "plaintext", &after);
    let fresh = client.diagnostics(fresh_uri, 1);
    assert_eq!(edited["diagnostics"], fresh["diagnostics"], "{edited}\n{fresh}");
    assert_eq!(preferred_fix(&mut client, fresh_uri), "Wb8");
    assert!(client.shutdown().success());
}

#[test]
fn html_pages_and_typst_chapters_are_manuscripts() {
    let mut client = Client::start();
    client.initialize(&["utf-8"], json!({}));
    // An HTML page: the figurine references read as moves, the finding at
    // its place in the source; an edit reads the page again.
    let uri = "file:///site/column.html";
    let text = "<html><body>\n<p>After 1. e4 e5 2. &#9816;f3 &#x2658;c6 3. <b>&#9815;b5</b> a6 4. &#x2657;h5</p>\n\
                <script>var s = '1. e4 e5 2. Ke3';</script>\n</body></html>\n";
    client.open_as(uri, "html", text);
    let params = client.diagnostics(uri, 1);
    assert_eq!(codes(&params), ["illegal-move"], "{params}");
    // The move ends where its reference's `h5` ends.
    let (line, col) = position_after(text, "&#x2657;h5", 0);
    assert_eq!(params["diagnostics"][0]["range"]["end"], json!({"line": line, "character": col + 10}), "{params}");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": range(line, col + 8, col + 10), "text": "a4"}]}),
    );
    assert!(codes(&client.diagnostics(uri, 2)).is_empty());
    // A Typst chapter, known by its extension when the language id says
    // nothing, and by its language id.
    let typst = "= Kapitel\n#set text(lang: \"de\")\nNach 1. d4 d5 2. c4 e6 3. Sc3 Sf6 4. Lg5 Le7 5. Lh7 h6.\n";
    client.open_as("file:///book/kapitel.typ", "plaintext", typst);
    assert_eq!(codes(&client.diagnostics("file:///book/kapitel.typ", 1)), ["illegal-move"]);
    client.open_as("file:///book/other", "typst", typst);
    assert_eq!(codes(&client.diagnostics("file:///book/other", 1)), ["illegal-move"]);
    assert!(client.shutdown().success());
}
