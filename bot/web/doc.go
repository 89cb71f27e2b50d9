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
// browser test. HTML pages carry an ETag from the heads of the logs they
// read and are revalidated each time; a step's picture never changes
// once the step is recorded and is cached for good. web.go routes and
// answers; pages.go gathers what each page shows; pace.go the players'
// pace on a saga's standings (calls answered, median and 90th percentile
// time to act, books finished and abandoned, in templates/pace.html, a
// block of its own); templates/ are the pages; favicon.go the icon.
package web
