//! End-to-end tests of notation inside Markdown: a book chapter with prose
//! (full of move-like words that are not moves) and a Russian game in a
//! fenced ```pgn block, served by the real `chess-ls` binary over stdio.

use chess_ls_tests::lsp_client::{Client, codes, position_after, pretty, range};
use serde_json::{Value, json};

const URI: &str = "file:///book/chapter-1.md";

fn game() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ru-errors.pgn")).expect("fixture")
}

/// A chapter: prose with a run of notation (`1. e4 e5 2. Кf3`, checked and
/// right) and words that look like moves but are not notation (Кd2, Кf3
/// without a move number, e4, O-O), the game in a ```pgn block, more prose
/// and a Python block with a "move".
fn chapter() -> String {
    format!(
        "# Глава 1. Итальянская партия\n\nПосле 1. e4 e5 2. Кf3 белые развивают коня; ход `Кd2` в партии ниже\nнеоднозначен, а Кf3 на 16-м ходу невозможен. Nf3, e4, O-O — просто слова.\n\n```pgn\n{}\n```\n\nПосле Кf3 на 16-м ходу партия прервана.\n\n```python\nprint(\"1. e4 e5 2. Ke2 Ke7 3. Кd2\")\n```\n",
        game()
    )
}

#[test]
fn a_game_in_a_markdown_chapter_gets_diagnostics_hover_quickfix_and_completion() {
    let text = chapter();
    let block = text.find("```pgn").unwrap();
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open_as(URI, "markdown", &text);

    // Exactly the two errors of the game, at their places in the chapter;
    // nothing from the prose or the Python block.
    let params = client.diagnostics(URI, 1);
    assert_eq!(codes(&params), ["ambiguous-move", "illegal-move"], "{params}");
    insta::assert_snapshot!("chapter_diagnostics", pretty(&params));
    let diagnostics = params["diagnostics"].as_array().unwrap();
    let (line, col) = position_after(&text, "Кd2", block);
    assert_eq!(diagnostics[0]["range"], range(line, col, col + 3));
    let (iline, icol) = position_after(&text, "Кf3 *", block);
    assert_eq!(diagnostics[1]["range"], range(iline, icol, icol + 3));
    assert!(diagnostics[1]["message"].as_str().unwrap().contains("White has no knight"));
    // The knights the ambiguity is about: in the block, before the move.
    let (block_line, _) = position_after(&text, "```pgn", 0);
    let related = diagnostics[0]["relatedInformation"].as_array().unwrap();
    assert_eq!(related.len(), 2);
    for r in related {
        assert_eq!(r["location"]["uri"], URI);
        let at = r["location"]["range"]["start"]["line"].as_u64().unwrap() as u32;
        assert!(block_line < at && at <= line, "{r}");
    }

    // Hover on 2. Кf3 in the block: the board after it.
    let (hl, hc) = position_after(&text, "Кf3", block);
    let hover = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": hl, "character": hc + 1}}),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("```text"), "{value}");
    assert!(value.contains("English SAN **Nf3**"), "{value}");
    assert!(value.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"), "{value}");
    // The move with its number: `2. Кf3`.
    assert_eq!(hover["range"], range(hl, hc - 3, hc + 3));
    insta::assert_snapshot!("hover_in_the_block", pretty(&hover));
    // The same move in the prose's run of notation has its board too...
    let (rl, rc) = position_after(&text, "Кf3", 0);
    let run = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": rl, "character": rc + 1}}),
    );
    assert!(run["contents"]["value"].as_str().unwrap().contains("English SAN **Nf3**"), "{run}");
    // ...but a move without a move number in the prose is only prose.
    let (pl, pc) = position_after(&text, "Кf3 на", 0);
    assert!(pl < hl);
    let prose = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": pl, "character": pc + 1}}),
    );
    assert!(prose.is_null(), "{prose}");

    // The preferred quick-fix writes Кbd2 in the block.
    let actions = client.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": range(line, col + 1, col + 1), "context": {"diagnostics": [], "only": ["quickfix"]}}),
    );
    let preferred: Vec<&Value> = actions.as_array().unwrap().iter().filter(|a| a["isPreferred"] == true).collect();
    assert_eq!(preferred.len(), 1, "{actions}");
    assert_eq!(preferred[0]["title"], "Write Кbd2");
    let edits = preferred[0]["edit"]["changes"][URI].as_array().unwrap().clone();
    assert_eq!(edits, [json!({"range": range(line, col, col + 3), "newText": "Кbd2"})]);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": edits.iter().map(|e| json!({"range": e["range"], "text": e["newText"]})).collect::<Vec<_>>()}),
    );
    let params = client.diagnostics(URI, 2);
    assert_eq!(codes(&params), ["illegal-move"], "the ambiguity is gone after the fix");

    // Completion where the illegal move stands: White's legal moves in
    // Russian. In prose: nothing.
    let (cl, cc) = position_after(&text, "Кf3 *", block);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3}, "contentChanges": [{"range": range(cl, cc, cc + 3), "text": "Ф"}]}),
    );
    let _ = client.diagnostics(URI, 3);
    let completion = client.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": URI}, "position": {"line": cl, "character": cc + 1}}),
    );
    let labels: Vec<&str> = completion.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"Фe3"), "{labels:?}");
    assert!(labels.iter().all(|l| l.starts_with('Ф')), "{labels:?}");
    let in_prose = client.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": URI}, "position": {"line": pl, "character": pc + 1}}),
    );
    assert!(in_prose.is_null(), "{in_prose}");
    let item = completion.as_array().unwrap().iter().find(|i| i["label"] == "Фe3").unwrap();
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 4}, "contentChanges": [{"range": item["textEdit"]["range"], "text": item["textEdit"]["newText"]}]}),
    );
    assert!(codes(&client.diagnostics(URI, 4)).is_empty());

    // Typing in the prose changes nothing; breaking the closing fence makes
    // the prose after it part of the block, and mending it restores.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 5}, "contentChanges": [{"range": range(2, 0, 0), "text": "Ещё одна строка с 1. e4 и Кd2.\n"}]}),
    );
    assert!(codes(&client.diagnostics(URI, 5)).is_empty());
    // The closing fence, one line lower now.
    let fence_line = position_after(&text, "```\n\nПосле Кf3", block + 3).0 + 1;
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 6}, "contentChanges": [{"range": range(fence_line, 0, 1), "text": ""}]}),
    );
    assert!(!codes(&client.diagnostics(URI, 6)).is_empty(), "the prose is read as moves now");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 7}, "contentChanges": [{"range": range(fence_line, 0, 0), "text": "`"}]}),
    );
    assert!(codes(&client.diagnostics(URI, 7)).is_empty());

    // Formatting leaves Markdown alone; semantic tokens stay in the block
    // and the runs of the prose (on lines 2 and 3 now).
    let formatting = client.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    // Format Document lays out the fenced block (whole games, wrapped at
    // 80), nothing outside it, and says that the runs in the prose are
    // left as written (logged beside the edit).
    let edits = formatting.as_array().expect("edits");
    assert_eq!(edits.len(), 1, "{formatting}");
    let (block_line, _) = position_after(&text, "[Event", block);
    // (One line further down than in `text`: the edits above added one.)
    assert_eq!(edits[0]["range"]["start"], json!({"line": block_line + 1, "character": 0}), "{formatting}");
    let new_text = edits[0]["newText"].as_str().unwrap();
    assert!(new_text.starts_with("[Event") && !new_text.contains("```"), "{new_text}");
    assert!(new_text.lines().all(|l| l.chars().count() <= 80), "{new_text}");
    // The note may come just before or just after the answer.
    let is_note = |n: &Value| {
        n["method"] == "window/logMessage" && n["params"]["message"].as_str().unwrap_or("").contains("left as written")
    };
    let note = client
        .notifications
        .iter()
        .find(|n| is_note(n))
        .cloned()
        .or_else(|| client.wait_for(is_note))
        .expect("a note on the prose's runs");
    assert!(note["params"]["message"].as_str().unwrap().contains("laid out 1 fenced block"), "{note}");
    let tokens = client.call("textDocument/semanticTokens/full", json!({"textDocument": {"uri": URI}}));
    let data = tokens["data"].as_array().unwrap();
    assert!(data.len() > 5 * 20);
    let mut token_line = 0;
    let (first_line, _) = position_after(&text, "[Event", block);
    let last_line = first_line + game().lines().count() as u32;
    for token in data.chunks(5) {
        token_line += token[0].as_u64().unwrap() as u32;
        assert!(
            (first_line + 1..=last_line + 1).contains(&token_line) || token_line == 2 || token_line == 3,
            "a token on line {token_line}"
        );
    }
    assert!(client.shutdown().success());
}

#[test]
fn markdown_is_recognised_by_language_id_or_extension_and_pgn_stays_pgn() {
    let text = "Some prose with Ke2 and 1. e4.\n\n```chess\n1. d4 d5 2. Кf3 Кf6 3. Кd2 *\n```\n";
    let mut client = Client::start();
    client.initialize(&["utf-8"], json!({}));
    // A `.md` file whose client knows no Markdown language id.
    client.open_as("file:///notes.md", "plaintext", text);
    let params = client.diagnostics("file:///notes.md", 1);
    assert_eq!(codes(&params), ["ambiguous-move"]);
    let (line, col) = (3, text.lines().nth(3).unwrap().find("Кd2").unwrap() as u32);
    assert_eq!(params["diagnostics"][0]["range"], range(line, col, col + "Кd2".len() as u32));
    // The same text as a `.pgn` file: everything is notation.
    client.open_as("file:///notes.pgn", "pgn", text);
    assert!(codes(&client.diagnostics("file:///notes.pgn", 1)).len() > 1);
    // A chapter without games.
    client.open_as("file:///intro.md", "markdown", "# Intro\n\n1. e4 is the most popular first move.\n");
    assert!(codes(&client.diagnostics("file:///intro.md", 1)).is_empty());
    assert!(client.shutdown().success());
}
