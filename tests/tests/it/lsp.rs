//! End-to-end tests of the language server: the real `chess-ls` binary over
//! stdio, driven the way an editor drives it.

use chess_ls_tests::lsp_client::{Client, codes, pretty, pretty_semantic_tokens, range};
use serde_json::{Value, json};
use std::path::Path;

const URI: &str = "file:///games/ru-errors.pgn";

fn fixture() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ru-errors.pgn")).expect("fixture")
}

/// The (line, UTF-16 column) of the `n`-th occurrence of `needle`.
fn position_of(text: &str, needle: &str, n: usize, utf8: bool) -> (u32, u32) {
    let offset = text.match_indices(needle).nth(n).expect("needle present").0;
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..offset].matches('\n').count() as u32;
    let prefix = &text[line_start..offset];
    let column = if utf8 { prefix.len() } else { prefix.encode_utf16().count() };
    (line, column as u32)
}

fn find<'a>(params: &'a Value, code: &str) -> &'a Value {
    params["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == code).unwrap_or_else(|| panic!("no {code}"))
}

#[test]
fn utf16_session_diagnostics_hover_quickfix_completion_and_edits() {
    let text = fixture();
    let mut client = Client::start();
    let init = client.initialize(&[], json!({}));
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 2, "incremental sync");
    client.open(URI, &text);
    let params = client.diagnostics(URI, 1);
    assert_eq!(params["version"], 1);
    assert_eq!(codes(&params), ["ambiguous-move", "illegal-move"]);
    insta::assert_snapshot!("ru_errors_diagnostics", pretty(&params));

    // Exact ranges, in UTF-16 units: Cyrillic letters are one unit each.
    let (line, col) = position_of(&text, "Кd2", 0, false);
    let ambiguous = find(&params, "ambiguous-move");
    assert_eq!(ambiguous["range"], range(line, col, col + 3));
    assert_eq!(ambiguous["severity"], 1);
    assert!(ambiguous["message"].as_str().unwrap().contains("the knight on b1 and the knight on f3"));
    assert_eq!(ambiguous["relatedInformation"].as_array().unwrap().len(), 2);
    let (iline, icol) = position_of(&text, "Кf3 *", 0, false);
    let illegal = find(&params, "illegal-move");
    assert_eq!(illegal["range"], range(iline, icol, icol + 3));
    assert!(illegal["message"].as_str().unwrap().contains("White has no knight"));

    // Hover on 7. Кbd2's neighbour 2. Кf3: a board with labels and a FEN.
    let (hl, hc) = position_of(&text, "Кf3", 0, false);
    let hover = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": hl, "character": hc + 1}}),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("English SAN **Nf3**"), "{value}");
    assert!(value.contains("a b c d e f g h"), "{value}");
    assert!(value.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"), "{value}");
    assert!(value.contains("Black to move"), "{value}");
    insta::assert_snapshot!("hover_legal_move", pretty(&hover));

    // Hover on the ambiguous 7. Кd2: what was tried and the guess
    // (hover_on_an_illegal_move_... has the details).
    let hover = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": col + 1}}),
    );
    assert!(hover["contents"]["value"].as_str().unwrap().contains("*A guess:*"), "{hover}");

    // Quick-fixes at the ambiguous move; the preferred one is Кbd2.
    let actions = client.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": range(line, col, col), "context": {"diagnostics": [], "only": ["quickfix"]}}),
    );
    let actions = actions.as_array().unwrap();
    let preferred: Vec<&Value> = actions.iter().filter(|a| a["isPreferred"] == true).collect();
    assert_eq!(preferred.len(), 1, "{actions:?}");
    assert_eq!(preferred[0]["title"], "Write Кbd2");
    let edits = preferred[0]["edit"]["changes"][URI].as_array().unwrap().clone();
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": edits.iter().map(|e| json!({"range": e["range"], "text": e["newText"]})).collect::<Vec<_>>()}),
    );
    let params = client.diagnostics(URI, 2);
    assert_eq!(params["version"], 2);
    assert_eq!(codes(&params), ["illegal-move"], "the ambiguity is gone after the fix");

    // Completion where the illegal move stands: the knightless White's moves,
    // in Russian, filtered by the typed `Ф`.
    let (cl, cc) = position_of(&text, "Кf3 *", 0, false);
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
    assert!(!labels.is_empty());
    assert!(labels.iter().all(|l| l.starts_with('Ф')), "{labels:?}");
    assert!(labels.contains(&"Фe3"), "{labels:?}");

    // Accept the completion: the move replaces what was typed.
    let item = completion.as_array().unwrap().iter().find(|i| i["label"] == "Фe3").unwrap();
    let edit = &item["textEdit"];
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 4}, "contentChanges": [{"range": edit["range"], "text": edit["newText"]}]}),
    );
    assert!(codes(&client.diagnostics(URI, 4)).is_empty());

    // Incremental edits in a burst: the last state wins.
    let (l1, c1) = position_of(&text, "Кf6", 0, false);
    for (version, letter) in [(5, "Кg6"), (6, "Кh6"), (7, "Кf6")] {
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"range": range(l1, c1, c1 + 3), "text": letter}]}),
        );
    }
    let params = client.diagnostics(URI, 7);
    assert_eq!(params["version"], 7);
    assert!(codes(&params).is_empty(), "{params}");

    assert!(client.shutdown().success());
}

#[test]
fn utf8_session_uses_byte_columns() {
    let text = fixture();
    let mut client = Client::start();
    let init = client.initialize(&["utf-8", "utf-16"], json!({}));
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    client.open(URI, &text);
    let params = client.diagnostics(URI, 1);
    let (line, col) = position_of(&text, "Кd2", 0, true);
    assert_eq!(find(&params, "ambiguous-move")["range"], range(line, col, col + "Кd2".len() as u32));
    assert!(client.shutdown().success());
}

#[test]
fn utf32_and_astral_characters_in_comments() {
    let text = "{😀 ♘ 𝄞} 1. Кf3 Кf6 2. d4 d5 3. Кd2 *\n";
    let mut client = Client::start();
    let init = client.initialize(&["utf-32"], json!({}));
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-32");
    client.open(URI, text);
    let params = client.diagnostics(URI, 1);
    let start = text[..text.find("Кd2").unwrap()].chars().count() as u32;
    assert_eq!(find(&params, "ambiguous-move")["range"], range(0, start, start + 3));
    assert!(client.shutdown().success());
}

#[test]
fn bad_input_never_kills_the_server() {
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    // Unknown document, out-of-range position, unknown method, malformed JSON.
    let hover = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.pgn"}, "position": {"line": 3, "character": 4}}),
    );
    assert!(hover.is_null());
    client.open(URI, "1. e4 e5 *");
    let _ = client.diagnostics(URI, 1);
    let hover = client
        .call("textDocument/hover", json!({"textDocument": {"uri": URI}, "position": {"line": 999, "character": 999}}));
    assert!(hover.is_null() || hover.is_object());
    let unknown = client.request("chess/unknownMethod", json!({}));
    assert!(unknown.get("error").is_some());
    client.send_raw(b"{ this is not json");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": "file:///never-opened.pgn", "version": 2}, "contentChanges": [{"text": "x"}]}),
    );
    // Still alive and answering.
    let symbols = client.call("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    assert_eq!(symbols.as_array().unwrap().len(), 1);
    assert!(client.shutdown().success());
}

#[test]
fn symbols_folding_semantic_tokens_formatting_and_source_actions() {
    let text = "[Event \"Cup\"]\n[White \"Anna\"]\n[Black \"Boris\"]\n[Result \"1-0\"]\n\n1. e4   e5 2. Nf3 {a\ncomment} Nc6 (2... d6\n3. d4) 3. Bb5 1-0\n";
    let mut client = Client::start();
    let init = client.initialize(&[], json!({}));
    client.open(URI, text);
    let _ = client.diagnostics(URI, 1);
    let symbols = client.call("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    assert_eq!(symbols[0]["name"], "Anna - Boris, Cup, 1-0");
    insta::assert_snapshot!("document_symbols", pretty(&symbols));
    let folds = client.call("textDocument/foldingRange", json!({"textDocument": {"uri": URI}}));
    assert!(folds.as_array().unwrap().iter().any(|f| f["kind"] == "comment"));
    // The game's fold, closed, shows its players.
    assert!(
        folds.as_array().unwrap().iter().any(|f| f["startLine"] == 0 && f["collapsedText"] == "Anna - Boris, Cup, 1-0"),
        "{folds}"
    );
    insta::assert_snapshot!("folding_ranges", pretty(&folds));
    let tokens = client.call("textDocument/semanticTokens/full", json!({"textDocument": {"uri": URI}}));
    assert!(tokens["data"].as_array().unwrap().len() > 20);
    let legend = &init["capabilities"]["semanticTokensProvider"]["legend"];
    insta::assert_snapshot!("semantic_tokens", pretty_semantic_tokens(text, legend, &tokens));
    let edits = client.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let formatted = edits[0]["newText"].as_str().unwrap();
    assert!(formatted.contains("1. e4 e5 2. Nf3 {a\ncomment} Nc6 (2... d6 3. d4) 3. Bb5 1-0"), "{formatted}");
    let actions = client.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": range(6, 0, 6, ), "context": {"diagnostics": [], "only": ["source"]}}),
    );
    let titles: Vec<&str> = actions.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert!(titles.contains(&"Translate the document to Russian"), "{titles:?}");
    let ru = actions.as_array().unwrap().iter().find(|a| a["title"] == "Translate the document to Russian").unwrap();
    let new_texts: Vec<&str> =
        ru["edit"]["changes"][URI].as_array().unwrap().iter().map(|e| e["newText"].as_str().unwrap()).collect();
    // Only the letters change; edits a few words apart come as one (the
    // text between them written as it was).
    assert_eq!(new_texts, ["Кf3 {a\ncomment} Кc6 (2... d6\n3. d4) 3. С"]);
    assert!(client.shutdown().success());
}

#[test]
fn position_at_gives_the_board_and_the_language_at_the_cursor() {
    let text = fixture();
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(URI, &text);
    let _ = client.diagnostics(URI, 1);
    let at = |client: &mut Client, line: u32, character: u32| {
        client.call(
            "chess-ls/positionAt",
            json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}}),
        )
    };
    // On 2. Кf3: the position after it, the move in Russian and English.
    let (line, col) = position_of(&text, "Кf3", 0, false);
    let info = at(&mut client, line, col + 1);
    assert_eq!(info["language"], "ru");
    assert_eq!(info["languageName"], "Russian");
    assert_eq!(info["fen"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    assert_eq!(info["status"], "Black to move");
    assert!(info["board"].as_str().unwrap().contains("a b c d e f g h"), "{info}");
    assert_eq!(info["move"]["number"], "2.");
    assert_eq!(info["move"]["san"], "Кf3");
    assert_eq!(info["move"]["english"], "Nf3");
    assert_eq!(info["move"]["uci"], "g1f3");
    assert_eq!(info["move"]["range"], range(line, col, col + 3));
    assert!(info.get("tried").is_none(), "a legal move: {info}");
    // On the ambiguous 7. Кd2: the position it was tried in, its finding
    // and the guess (the position and move above are the guess's).
    let (aline, acol) = position_of(&text, "Кd2", 0, false);
    let info = at(&mut client, aline, acol + 1);
    let tried = &info["tried"];
    assert_eq!(tried["written"], "Кd2", "{info}");
    assert_eq!(tried["fen"], "r1bqk2r/pppp1ppp/2n2n2/8/1bBPP3/5N2/PP3PPP/RNBQK2R w KQkq - 1 7", "{info}");
    assert_eq!(tried["status"], "White to move, in check", "{info}");
    assert!(tried["findings"][0].as_str().unwrap().starts_with("Кd2 is ambiguous"), "{info}");
    assert_eq!(tried["guess"], "Кbd2", "{info}");
    assert_eq!(info["fen"], "r1bqk2r/pppp1ppp/2n2n2/8/1bBPP3/5N2/PP1N1PPP/R1BQK2R b KQkq - 2 7", "{info}");
    assert_eq!(info["move"]["guessed"], true, "{info}");
    // On the illegal 16. Кf3, which no reading saves: tried where the
    // cursor's position is (after 15... Фb6), no guess.
    let (iline, icol) = position_of(&text, "Кf3 *", 0, false);
    let info = at(&mut client, iline, icol + 1);
    let tried = &info["tried"];
    assert_eq!(tried["written"], "Кf3", "{info}");
    assert!(tried["findings"][0].as_str().unwrap().contains("White has no knight"), "{info}");
    assert!(tried["guess"].is_null(), "{info}");
    assert_eq!(tried["fen"], info["fen"], "{info}");
    assert_eq!(info["move"]["san"], "Фb6", "{info}");
    // Between moves: the last move before the cursor (2... Кc6).
    let info = at(&mut client, line, col + 4);
    assert_eq!(info["move"]["san"], "Кc6");
    assert_eq!(info["move"]["number"], "2...");
    // In the tags: the start position, no move yet, the language known.
    let info = at(&mut client, 0, 1);
    assert_eq!(info["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(info["move"].is_null());
    assert_eq!(info["language"], "ru");
    // A document that is not open.
    let none = client.call(
        "chess-ls/positionAt",
        json!({"textDocument": {"uri": "file:///nowhere.pgn"}, "position": {"line": 0, "character": 0}}),
    );
    assert!(none.is_null());
    assert!(client.shutdown().success());
}

#[test]
fn a_move_number_with_no_move_after_a_game_is_no_game_for_the_status() {
    // `18.` typed after the result: the status and the board show the game
    // before it (its language, its last position), not a new game.
    let text = "1. e4 e5 2. \u{41a}f3 \u{41a}c6 *\n\n18.\n";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(URI, text);
    let _ = client.diagnostics(URI, 1);
    let info = client
        .call("chess-ls/positionAt", json!({"textDocument": {"uri": URI}, "position": {"line": 2, "character": 3}}));
    assert_eq!(info["language"], "ru", "{info}");
    assert_eq!(info["fen"], "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "{info}");
    assert_eq!(info["move"]["english"], "Nc6", "{info}");
    // Alone in a document it is no game at all.
    client.open("file:///games/stray.pgn", "18.\n");
    let _ = client.diagnostics("file:///games/stray.pgn", 1);
    let none = client.call(
        "chess-ls/positionAt",
        json!({"textDocument": {"uri": "file:///games/stray.pgn"}, "position": {"line": 0, "character": 3}}),
    );
    assert!(none.is_null(), "{none}");
    assert!(client.shutdown().success());
}

#[test]
fn a_move_number_with_no_move_after_a_game_is_no_game_in_the_outline() {
    // The outline agrees with the status: `18.` typed after the result is no
    // game, on the open's path (no tree kept) and after an edit (a tree).
    let text = "1. e4 e5 2. \u{41a}f3 \u{41a}c6 *\n\n18.\n";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(URI, text);
    let _ = client.diagnostics(URI, 1);
    let names = |symbols: &Value| -> Vec<String> {
        symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_owned()).collect()
    };
    let symbols = client.call("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    assert_eq!(names(&symbols), ["*"], "{symbols}");
    // Typed on: `18...`, then the move makes it a game.
    for (version, column, insert, want) in [(2, 3, "..", vec!["*"]), (3, 5, " e4", vec!["*", "Game 2"])] {
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"range": range(2, column, column), "text": insert}]}),
        );
        let _ = client.diagnostics(URI, version);
        let symbols = client.call("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
        assert_eq!(names(&symbols), want, "v{version}: {symbols}");
    }
    // Alone in a document it is no game at all.
    client.open("file:///games/stray.pgn", "18.\n");
    let _ = client.diagnostics("file:///games/stray.pgn", 1);
    let symbols =
        client.call("textDocument/documentSymbol", json!({"textDocument": {"uri": "file:///games/stray.pgn"}}));
    assert_eq!(names(&symbols), Vec::<String>::new(), "{symbols}");
    assert!(client.shutdown().success());
}

#[test]
fn source_actions_answer_to_their_own_kind() {
    let text = "1. e4 e5 2. Nf3 Nc6 *\n";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(URI, text);
    let _ = client.diagnostics(URI, 1);
    let titles = |client: &mut Client, only: &str| -> Vec<String> {
        let actions = client.call(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": URI}, "range": range(0, 0, 0), "context": {"diagnostics": [], "only": [only]}}),
        );
        actions.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap().to_owned()).collect()
    };
    // An editor command that asks for `source.chess-ls` only (VS Code's
    // `editor.action.sourceAction` with that kind) gets the same actions as
    // one asking for every `source` action.
    let own = titles(&mut client, "source.chess-ls");
    assert!(own.contains(&"Translate the document to Russian".to_owned()), "{own:?}");
    assert_eq!(own, titles(&mut client, "source"));
    assert!(titles(&mut client, "source.organizeImports").is_empty());
    assert!(client.shutdown().success());
}

#[test]
fn a_client_that_asks_for_the_language_itself_gets_one_translate_in_its_source_action_menu() {
    // A game with a certain fix (the look-alike Cyrillic `е` in `е5`).
    let text = "1. e4 \u{435}5 2. Nf3 Nc6 *\n";
    let mut client = Client::start();
    client.call(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {
            "experimental": {"commands": {"commands": ["chess-ls.translate"]}}}}),
    );
    client.notify("initialized", json!({}));
    client.open(URI, text);
    let _ = client.diagnostics(URI, 1);
    let actions = |client: &mut Client, only: &str| -> Vec<Value> {
        let actions = client.call(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": URI}, "range": range(0, 0, 0), "context": {"diagnostics": [], "only": [only]}}),
        );
        actions.as_array().unwrap().clone()
    };
    // Source Action...: fix-all, normalize and one "Translate to..." that
    // runs the client's command (which asks for the language), not 44
    // translations.
    let menu = actions(&mut client, "source");
    let titles: Vec<&str> = menu.iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Fix all certain problems (1)", "Normalize notation (canonical SAN)", "Translate to..."]);
    let translate = &menu[2];
    assert_eq!(translate["kind"], "source.chess-ls.translate");
    assert_eq!(translate["command"]["command"], "chess-ls.translate");
    assert_eq!(translate["command"]["arguments"], json!([URI]));
    assert!(translate["edit"].is_null() && translate["data"].is_null(), "{translate}");
    // Our own kinds only: the same, without fix-all (`source.fixAll.chess-ls`).
    let own: Vec<String> =
        actions(&mut client, "source.chess-ls").iter().map(|a| a["title"].as_str().unwrap().to_owned()).collect();
    assert_eq!(own, ["Normalize notation (canonical SAN)", "Translate to..."]);
    // The command then asks for its language's kind: those actions come.
    let ru: Vec<String> = actions(&mut client, "source.chess-ls.translate.ru")
        .iter()
        .map(|a| a["title"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ru, ["Translate the document to Russian", "Translate this game to Russian"]);
    // Every translation, asked for by their kind.
    assert_eq!(
        actions(&mut client, "source.chess-ls.translate").len(),
        2 * chess_ls::analysis::languages::Language::ALL.len()
    );
    assert!(client.shutdown().success());
}

#[test]
fn completion_after_a_move_number_offers_every_legal_move_in_the_games_language() {
    let text = "1. e4 e5 2. Кf3 Кc6 3. ";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(URI, text);
    let _ = client.diagnostics(URI, 1);
    let completion = client.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": text.chars().count()}}),
    );
    let labels: Vec<&str> = completion.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    // White's legal moves after 1. e4 e5 2. Nf3 Nc6, in Russian.
    let mut position = shakmaty::Chess::default();
    for san in ["e4", "e5", "Nf3", "Nc6"] {
        let m = san.parse::<shakmaty::san::San>().unwrap().to_move(&position).unwrap();
        shakmaty::Position::play_unchecked(&mut position, m);
    }
    assert_eq!(labels.len(), shakmaty::Position::legal_moves(&position).len(), "{labels:?}");
    for expected in ["Сb5", "Кxe5", "d4", "Крe2"] {
        assert!(labels.contains(&expected), "{expected} in {labels:?}");
    }
    assert!(!labels.iter().any(|l| l.starts_with(['N', 'B'])), "{labels:?}");
    insta::assert_snapshot!("completion_after_a_move_number", pretty(&completion));
    assert!(client.shutdown().success());
}

#[test]
fn a_project_file_above_the_document_sets_its_language_and_codes_as_for_the_command_line() {
    // The same game and `chess-ls.toml` as `archives::` gives the command
    // line: the server publishes what `--check` reports for the file.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lsp-project");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("ru")).unwrap();
    let game = "1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. Сa4 Кf6 5. O-O Сe7 6. Ke3 *\n";
    std::fs::write(dir.join("ru/g.pgn"), game).unwrap();
    std::fs::write(dir.join("g.pgn"), game).unwrap();
    std::fs::write(
        dir.join("ru/chess-ls.toml"),
        "language = \"ru\"\nignore = [\"illegal-move\"]\n\n[severity]\nhomoglyph = \"info\"\n",
    )
    .unwrap();
    let inside = format!("file://{}", dir.join("ru/g.pgn").display());
    let outside = format!("file://{}", dir.join("g.pgn").display());
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(&inside, game);
    client.open(&outside, game);
    let found = client.diagnostics(&inside, 1);
    assert!(!codes(&found).contains(&"illegal-move".to_owned()), "{found}");
    let homoglyph = found["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "homoglyph");
    assert_eq!(homoglyph.map(|d| d["severity"].clone()), Some(json!(3)), "{found}");
    assert!(codes(&client.diagnostics(&outside, 1)).contains(&"illegal-move".to_owned()));
    // What the command line reports for the file, code by code.
    let output = std::process::Command::new(chess_ls_tests::binary::chess_ls())
        .args(["--check", "--format", "json", "ru/g.pgn"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let cli: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["code"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(codes(&found), cli);
    assert!(client.shutdown().success());
}

/// A client that asks for the tokens of the lines it shows (VS Code) is
/// refused a big document's whole-document tokens at once, as a server
/// cancellation (so that it asks by range, which it is answered), and
/// still gets a small document's; a client that cannot ask by range gets
/// a big document's whole tokens.
#[test]
fn a_big_document_is_served_by_range_to_a_client_that_asks_by_range() {
    use chess_ls::analysis::languages::{Language, MoveStyle};
    use chess_ls::lsp::handlers::semantic_tokens::WHOLE_DOCUMENT_MAX;
    use chess_ls_tests::generate::{RenderOptions, corpus};
    let big = corpus(7, 600, &MoveStyle::for_language(Language::En), &RenderOptions::default());
    assert!(big.len() > WHOLE_DOCUMENT_MAX, "{} bytes", big.len());
    let small = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n";
    let (big_uri, small_uri) = ("file:///games/big.pgn", "file:///games/small.pgn");
    let start = |requests: Value| {
        let mut client = Client::start();
        client.call(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {"textDocument": {"semanticTokens": {
                "requests": requests, "tokenTypes": [], "tokenModifiers": [], "formats": ["relative"]}}}}),
        );
        client.notify("initialized", json!({}));
        client.open(big_uri, &big);
        client.diagnostics(big_uri, 1);
        client.open(small_uri, small);
        client.diagnostics(small_uri, 1);
        client
    };
    let whole = |client: &mut Client, uri: &str| {
        client.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}}))
    };
    let first_lines = json!({"start": {"line": 0, "character": 0}, "end": {"line": 40, "character": 0}});

    let mut by_range = start(json!({"range": true, "full": {"delta": true}}));
    let refused = whole(&mut by_range, big_uri);
    assert_eq!(refused["error"]["code"], -32802, "{refused}");
    let delta = by_range.request(
        "textDocument/semanticTokens/full/delta",
        json!({"textDocument": {"uri": big_uri}, "previousResultId": "1"}),
    );
    assert_eq!(delta["error"]["code"], -32802, "{delta}");
    let shown = by_range
        .call("textDocument/semanticTokens/range", json!({"textDocument": {"uri": big_uri}, "range": first_lines}));
    let shown = shown["data"].as_array().unwrap().clone();
    assert!(shown.len() > 100, "{} numbers", shown.len());
    let small_tokens = whole(&mut by_range, small_uri);
    assert!(small_tokens["result"]["data"].as_array().is_some_and(|d| !d.is_empty()), "{small_tokens}");
    assert!(by_range.shutdown().success());

    // The same tokens as the whole document's first ones, for a client
    // that asks for the whole document only.
    let mut whole_only = start(json!({"full": {"delta": true}}));
    let all = whole(&mut whole_only, big_uri);
    let all = all["result"]["data"].as_array().unwrap_or_else(|| panic!("{all}")).clone();
    assert!(all.len() > shown.len());
    assert_eq!(all[..shown.len()], shown[..]);
    assert!(whole_only.shutdown().success());
}

#[test]
fn completion_keeps_the_separator_and_lists_checks_and_captures_then_pieces_then_pawns() {
    // After 3... Кf6 White has Сxf7+ (a capture with check) and Кxe5.
    let text = "1. e4 e5 2. Кf3 Кc6 3. Сc4 Кf6 *\n";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(URI, text);
    let _ = client.diagnostics(URI, 1);
    let at = text[..text.find('*').unwrap()].chars().count() as u32;
    let completion = client.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": at}}),
    );
    let items = completion.as_array().unwrap();
    let labels: Vec<&str> = items.iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert_eq!(labels[..2], ["Сxf7+", "Кxe5"], "{labels:?}");
    // The editors sort by sortText: it keeps this order.
    let sort: Vec<&str> = items.iter().map(|i| i["sortText"].as_str().unwrap()).collect();
    assert!(sort.windows(2).all(|w| w[0] < w[1]), "{sort:?}");
    // Every piece move comes before every quiet pawn move.
    let is_pawn = |l: &&str| l.starts_with(|c: char| c.is_ascii_lowercase());
    let first_pawn = labels.iter().position(is_pawn).unwrap();
    assert!(labels[first_pawn..].iter().all(is_pawn), "{labels:?}");
    assert!(labels[2..first_pawn].contains(&"O-O") && labels[2..first_pawn].contains(&"Крf1"), "{labels:?}");
    // Accepted before the result, the move keeps a space from it.
    let edit = &items[0]["textEdit"];
    assert_eq!(edit["newText"], "4. Сxf7+ ");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"range": edit["range"], "text": edit["newText"]}]}),
    );
    assert!(codes(&client.diagnostics(URI, 2)).is_empty());
    let formatted = client.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    // The server's text is the edited one: formatting it changes nothing.
    assert_eq!(formatted, json!([]), "1. e4 e5 2. Кf3 Кc6 3. Сc4 Кf6 4. Сxf7+ * is laid out already");

    // Right after a move number's dot (the `.` triggers completion), the
    // move comes after a space: `4. Кxe5`, not `4.Кxe5`.
    let glued = "1. e4 e5 2. Кf3 Кc6 3. Сc4 Кf6 4.";
    let uri = "file:///games/glued.pgn";
    client.open(uri, glued);
    let _ = client.diagnostics(uri, 1);
    let completion = client.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": glued.chars().count()}}),
    );
    let kxe5 = completion.as_array().unwrap().iter().find(|i| i["label"] == "Кxe5").expect("Кxe5 offered");
    assert_eq!(kxe5["textEdit"]["newText"], " Кxe5");
    assert!(client.shutdown().success());
}

#[test]
fn formatting_wraps_at_the_width_setting_and_never_after_a_move_number() {
    let moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 \
                 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 *";
    let text = moves.replace(' ', "  ") + "\n";
    let format = |client: &mut Client| -> String {
        let edits = client.call(
            "textDocument/formatting",
            json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
        );
        edits[0]["newText"].as_str().unwrap().to_owned()
    };
    let number_ends_a_line = |line: &str| {
        line.rsplit(' ').next().is_some_and(|w| w.ends_with('.') && w.starts_with(|c: char| c.is_ascii_digit()))
    };
    for width in [20, 29, 30, 31, 40, 80] {
        let mut client = Client::start();
        client.initialize(&[], json!({"formatWidth": width}));
        client.open(URI, &text);
        let _ = client.diagnostics(URI, 1);
        let formatted = format(&mut client);
        assert_eq!(formatted.split_whitespace().collect::<Vec<_>>(), moves.split_whitespace().collect::<Vec<_>>());
        for line in formatted.lines() {
            assert!(line.chars().count() <= width, "{width}: {line:?} is too long in\n{formatted}");
            assert!(!number_ends_a_line(line), "{width}: {line:?} ends with a move number in\n{formatted}");
        }
        assert!(formatted.lines().count() > 1, "{formatted}");
        // Width 0, sent as the editor's configuration: one line a game.
        client.notify("workspace/didChangeConfiguration", json!({"settings": {"chess-ls": {"formatWidth": 0}}}));
        assert_eq!(format(&mut client), format!("{moves}\n"));
        assert!(client.shutdown().success());
    }
}

#[test]
fn hover_on_an_illegal_move_shows_the_position_it_was_tried_in_its_finding_and_the_guess() {
    let text = fixture();
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(URI, &text);
    let _ = client.diagnostics(URI, 1);
    // 7. Кd2 is ambiguous; the check went on with Кbd2.
    let (line, col) = position_of(&text, "Кd2", 0, false);
    let hover = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": col + 1}}),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.starts_with("**Кd2** as written\n\nerror (ambiguous-move): "), "{value}");
    // The board before 7. Кd2, White to move, and its FEN.
    assert!(value.contains("The position it was tried in · White to move"), "{value}");
    assert!(value.contains("FEN: `r1bqk2r/pppp1ppp/2n2n2/8/1bBPP3/5N2/PP3PPP/RNBQK2R w KQkq - 1 7`"), "{value}");
    // The reading the check went on with comes last, as a guess.
    let guess =
        value.find("*A guess:* the check went on as if **Кbd2** (English SAN **Nbd2**) was played.").expect(value);
    assert!(guess > value.find("FEN: ").unwrap(), "{value}");
    // One board and one FEN: the position it was tried in (the guess is
    // named, not drawn).
    assert_eq!(value.matches("```text").count(), 1, "{value}");
    assert_eq!(value.matches("FEN").count(), 1, "{value}");
    insta::assert_snapshot!("hover_ambiguous_move", pretty(&hover));

    // 16. Кf3: White has no knight; no reading saves it, so no guess.
    let (iline, icol) = position_of(&text, "Кf3 *", 0, false);
    let hover = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": iline, "character": icol + 1}}),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.starts_with("**Кf3** as written\n\nerror (illegal-move): "), "{value}");
    assert!(value.contains("White has no knight"), "{value}");
    assert!(value.contains("The position it was tried in · White to move"), "{value}");
    assert!(!value.contains("guess"), "{value}");
    insta::assert_snapshot!("hover_illegal_move", pretty(&hover));
    assert!(client.shutdown().success());
}

/// A database of 2,000 games from three events, over the protocol: the
/// outline's groups (one event each, a hundred games at most) open on their
/// games, so a game is found by its players and event; its fold, closed,
/// shows the same name.
#[test]
fn a_database_of_two_thousand_games_is_outlined_by_event_with_every_game_inside() {
    let events = ["Wijk aan Zee 2024", "Moscow 1925", "Dortmund 1992"];
    let text: String = (1..=2000)
        .map(|i| {
            let event = events[(i - 1) * 3 / 2000];
            format!(
                "[Event \"{event}\"]\n[Round \"{}\"]\n[White \"Player {i}\"]\n[Black \"Rival {i}\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5\n2. Nf3 Nc6 1/2-1/2\n\n",
                i % 9 + 1
            )
        })
        .collect();
    let uri = "file:///games/db.pgn";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(uri, &text);
    let _ = client.diagnostics(uri, 1);
    let groups = client.call("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let groups = groups.as_array().unwrap();
    assert_eq!(groups[0]["name"], "Wijk aan Zee 2024 · games 1-100");
    assert!(
        groups.iter().any(|g| g["name"] == "Dortmund 1992 · games 1335-1434"),
        "{:?}",
        groups.iter().map(|g| &g["name"]).collect::<Vec<_>>()
    );
    let games: Vec<&Value> = groups.iter().flat_map(|g| g["children"].as_array().unwrap()).collect();
    assert_eq!(games.len(), 2000);
    let want = format!("Player 1500 - Rival 1500, Dortmund 1992 {}, 1/2-1/2", 1500 % 9 + 1);
    let game = games.iter().find(|g| g["name"] == want.as_str()).unwrap_or_else(|| panic!("{want} not in the outline"));
    let (line, _) = position_of(&text, "[White \"Player 1500\"]", 0, false);
    let (start, end) =
        (game["range"]["start"]["line"].as_u64().unwrap(), game["range"]["end"]["line"].as_u64().unwrap());
    assert!(start <= u64::from(line) && u64::from(line) <= end, "{game} holds line {line}");
    let folds = client.call("textDocument/foldingRange", json!({"textDocument": {"uri": uri}}));
    assert!(folds.as_array().unwrap().iter().any(|f| f["collapsedText"] == want.as_str()), "no fold shows {want}");
    assert!(client.shutdown().success());
}

/// A big document is analysed off the server's lock: while it is being
/// opened, a request on another document is answered at once; an edit of
/// the big one sent right after its open is applied once it is in place
/// (its first diagnostics are of that edit's version); a request on it
/// sent before the edit waits for it and answers "content modified" after
/// the edit's diagnostics, as for an open document, and one sent after the
/// edit is answered after them.
#[test]
fn a_request_on_a_small_document_is_answered_while_a_big_one_is_opened() {
    use chess_ls::analysis::languages::{Language, MoveStyle};
    use chess_ls_tests::generate::{RenderOptions, corpus};
    let big = corpus(7, 3000, &MoveStyle::for_language(Language::En), &RenderOptions::default());
    let small = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n";
    let (big_uri, small_uri) = ("file:///opening/big.pgn", "file:///opening/small.pgn");
    let mut client = Client::start();
    client.initialize(&["utf-16"], json!({}));
    client.open(small_uri, small);
    client.diagnostics(small_uri, 1);

    client.open(big_uri, &big);
    let symbols = |uri: &str| json!({"textDocument": {"uri": uri}});
    let big_before_edit = client.send_request("textDocument/documentSymbol", symbols(big_uri));
    // The first move made illegal (`e4` -> `e6`) while the big document is
    // still being analysed.
    let at = big.find("e4").or_else(|| big.find("d4")).expect("a pawn move");
    let line = big[..at].matches('\n').count() as u32;
    let character = (at - big[..at].rfind('\n').map_or(0, |n| n + 1)) as u32;
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": big_uri, "version": 2},
            "contentChanges": [{"range": range(line, character + 1, character + 2), "text": "6"}],
        }),
    );
    let big_after_edit = client.send_request("textDocument/documentSymbol", symbols(big_uri));
    let small_request = client.send_request("textDocument/documentSymbol", symbols(small_uri));
    let mut order = Vec::new();
    while order.len() < 4 {
        let message = client.next_message().expect("the server answers");
        let answer = message.get("method").is_none();
        if message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == big_uri {
            assert_eq!(message["params"]["version"], 2, "the open's own version is never published: {message}");
            assert!(!message["params"]["diagnostics"].as_array().unwrap().is_empty(), "the illegal move is found");
            order.push("diagnostics v2");
        } else if answer && message["id"] == small_request {
            assert_eq!(message["result"].as_array().map(Vec::len), Some(1), "{message}");
            order.push("small document");
        } else if answer && message["id"] == big_before_edit {
            assert_eq!(message["error"]["code"], -32801, "content modified: {message}");
            order.push("request before the edit");
        } else if answer && message["id"] == big_after_edit {
            assert!(message["result"].as_array().is_some_and(|s| !s.is_empty()), "{message}");
            order.push("request after the edit");
        }
    }
    assert_eq!(order[..2], ["small document", "diagnostics v2"], "{order:?}");
    assert!(client.shutdown().success());
}

/// Opening a big document is reported as work-done progress to a client
/// that shows it (`window.workDoneProgress`): the token is created, begun
/// before the document's diagnostics and ended after them; a small
/// document is checked without any.
#[test]
fn opening_a_big_document_reports_its_progress_from_begin_to_end() {
    use chess_ls::analysis::languages::{Language, MoveStyle};
    use chess_ls_tests::generate::{RenderOptions, corpus};
    let big = corpus(11, 4000, &MoveStyle::for_language(Language::En), &RenderOptions::default());
    assert!(big.len() > 1 << 20, "{} bytes", big.len());
    let (big_uri, small_uri) = ("file:///progress/big%20base.pgn", "file:///progress/small.pgn");
    let mut client = Client::start();
    client.call(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {"window": {"workDoneProgress": true}}}),
    );
    client.notify("initialized", json!({}));
    client.open(small_uri, "1. e4 e5 *\n");
    client.open(big_uri, &big);
    let mut seen = Vec::new();
    let mut token = Value::Null;
    while !seen.contains(&"end".to_owned()) {
        let message = client.next_message().expect("the server goes on");
        let method = message["method"].as_str().unwrap_or_default();
        if method == "window/workDoneProgress/create" {
            token = message["params"]["token"].clone();
            seen.push("create".to_owned());
        } else if method == "$/progress" {
            assert_eq!(message["params"]["token"], token, "{message}");
            let value = &message["params"]["value"];
            if value["kind"] == "begin" {
                assert_eq!(value["title"], "Checking", "{message}");
                assert!(value["message"].as_str().unwrap().starts_with("big base.pgn ("), "{message}");
            }
            seen.push(value["kind"].as_str().unwrap().to_owned());
        } else if method == "textDocument/publishDiagnostics" && message["params"]["uri"] == big_uri {
            seen.push("diagnostics".to_owned());
        }
    }
    // One progress, for the big document only.
    assert_eq!(seen, ["create", "begin", "diagnostics", "end"]);
    assert!(client.shutdown().success());
}

/// The requests an editor sends after an edit are answered after that
/// edit's diagnostics are published, every time.
#[test]
fn the_requests_an_edit_triggers_are_answered_after_its_diagnostics() {
    let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
    let uri = "file:///ordering/game.pgn";
    let mut client = Client::start();
    client.initialize(&["utf-16"], json!({}));
    client.open(uri, text);
    client.diagnostics(uri, 1);
    let doc = json!({"uri": uri});
    let at = json!({"line": 2, "character": 4});
    for version in 2u32..12 {
        // `e4` made `e6` (illegal) and back, by turns.
        let new = if version.is_multiple_of(2) { "6" } else { "4" };
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": range(2, 4, 5), "text": new}]}),
        );
        let asked = [
            client.send_request("textDocument/documentSymbol", json!({"textDocument": doc})),
            client.send_request("textDocument/foldingRange", json!({"textDocument": doc})),
            client.send_request(
                "textDocument/semanticTokens/range",
                json!({"textDocument": doc, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}}}),
            ),
            client.send_request(
                "textDocument/codeAction",
                json!({"textDocument": doc, "range": {"start": at, "end": at}, "context": {"diagnostics": []}}),
            ),
            client.send_request("textDocument/hover", json!({"textDocument": doc, "position": at})),
            client.send_request("textDocument/completion", json!({"textDocument": doc, "position": at})),
        ];
        let mut published = false;
        let mut answered = 0;
        while answered < asked.len() {
            let message = client.next_message().expect("the server answers");
            if message["method"] == "textDocument/publishDiagnostics" {
                assert_eq!(message["params"]["version"], version, "{message}");
                assert_eq!(message["params"]["diagnostics"].as_array().unwrap().is_empty(), !version.is_multiple_of(2));
                published = true;
            } else if message.get("method").is_none() && asked.contains(&message["id"].as_i64().unwrap_or(-1)) {
                assert!(published, "v{version}: an answer came before the edit's diagnostics: {message}");
                assert!(message.get("error").is_none(), "{message}");
                answered += 1;
            }
        }
    }
    assert!(client.shutdown().success());
}

/// A newer edit cancels the work of a request on the older version: a
/// translation of a database, asked for just before a keystroke, answers
/// "content modified" once the keystroke's diagnostics are published.
#[test]
fn a_newer_edit_cancels_a_slow_request_on_the_older_version() {
    use chess_ls::analysis::languages::{Language, MoveStyle};
    use chess_ls_tests::generate::{RenderOptions, corpus};
    let text = corpus(42, 600, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
    let uri = "file:///ordering/database.pgn";
    let mut client = Client::start();
    client.call(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {"textDocument": {
            "codeAction": {"resolveSupport": {"properties": ["edit"]}}}}}),
    );
    client.notify("initialized", json!({}));
    client.open(uri, &text);
    client.diagnostics(uri, 1);
    let at = json!({"line": 0, "character": 0});
    let menu = client.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": at, "end": at}, "context": {"diagnostics": [], "only": ["source"]}}),
    );
    let translate = menu
        .as_array()
        .and_then(|actions| actions.iter().find(|a| a["kind"] == "source.chess-ls.translate.en"))
        .unwrap_or_else(|| panic!("translate to English is offered: {menu}"))
        .clone();
    let slow = client.send_request("codeAction/resolve", translate);
    // A blank typed at the document's end: a new version, nothing else.
    let end = text.lines().count() as u32;
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": range(end, 0, 0), "text": " "}]}),
    );
    let mut order = Vec::new();
    while order.len() < 2 {
        let message = client.next_message().expect("the server answers");
        if message["method"] == "textDocument/publishDiagnostics" {
            assert_eq!(message["params"]["version"], 2, "{message}");
            order.push("diagnostics v2");
        } else if message.get("method").is_none() && message["id"] == slow {
            assert_eq!(message["error"]["code"], -32801, "content modified: {message}");
            order.push("translation cancelled");
        }
    }
    assert_eq!(order, ["diagnostics v2", "translation cancelled"]);
    assert!(client.shutdown().success());
}
