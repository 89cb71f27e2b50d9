// Package web serves the pages a server publishes: a GWAB saga's
// standings, each Hero's ledger (every change of his honor, from which
// book and step, and the ranks the Herald proclaimed), its books, and
// each book step by step with the board as that step left it; or a
// single book of any rule system. `rhapsode serve --web ADDR` and
// `rhapsode gateway --web ADDR` serve them beside the bot.
//
// Nothing is public until published: /saga publish (the Herald) or /book
// publish (the book's game master) gives the game an address under a
// random token, /saga withdraw and /book withdraw take it down, and every
// other address answers 404 alike. A page shows what the channel was told
// and nothing more: secrets still sealed stay sealed (engine.Redact, as
// the export does), no Discord ID appears (players are "Player 1",
// "Player 2"… in the order the published game first names them, in the
// text and in the pictures), and a publication reaches only its own
// server's games.
//
// The pages are html/template, with their style inline and nothing
// fetched from elsewhere (their icon is served here too: favicon.svg,
// and the same drawn as a PNG for /favicon.ico), readable on a phone and
// by a screen reader: a step's picture has the step and what it did as
// its text, its size, and the narration as its caption; titles name the
// saga, the book and the step; axe-core checks every kind of page in the
// browser test.
//
// A book's page shows the board as a step left it (its last, or the step
// its address names) beside the list of every step, each a link, the one
// shown marked, and the book's export to download. static/book.js, the
// one script (the policy allows the server's own only), steps in place
// from each step's JSON by those links and the arrow keys; without it
// every link is a whole page. The local table's #seed, #stack and #load
// steps are never shown.
//
// What a book's pages need is read once for each head of its log (and
// of the publication's): fold.go keeps what each step told, the list of
// steps rendered once, each picture's size and a copy of the game every
// snapEvery steps, so a step's page costs the same wherever it is in the
// book. Pages carry an ETag made from the publication, the book, their
// heads and the step, answered 304 before the book is read; HTML and
// JSON are gzipped when the browser takes it. A step's picture never
// changes once the step is recorded and is cached by browsers for good;
// draw.go draws pictures on a small pool of painters of the pages' own,
// lets a few requests wait, asks the rest to come back (503), and keeps
// what it drew keyed by a digest of what the picture shows.
//
// A saga is read through the engine's ledger (engine.Ledgered, which
// GWAB's sagas implement): its record, and the lines and rank changes
// each of its events wrote; this package imports no rule system. The
// saga's standings (standings.go) add each Hero's change in the last
// book, books and deeds from that record, and his honor after each book
// as an SVG chart drawn here.
//
// pace.go adds the players' pace (calls answered, median and 90th
// percentile time to act, books finished and abandoned) to a saga's
// standings, in templates/pace.html, a block of its own.
//
// web.go routes and answers; pages.go gathers what the book and Hero
// pages show; export.go the download; templates/ are the pages;
// favicon.go the icon.
package web
