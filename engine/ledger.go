package engine

// Ledgers. Some campaigns keep their record as a ledger: each of their
// heroes earns and loses points over the books, line by line, and is
// ranked by them (gwab's sagas and their honor, 5.5). Whoever shows that
// record (the bot's published pages) reads it through [Ledgered] alone
// and knows nothing of the rule system behind it.

// Ledgered is the rule system of a campaign whose record is a ledger.
type Ledgered interface {
	Chronicle
	// Ledger is the campaign's record as s, one of its states, stands.
	Ledger(s State) Ledger
	// Entries are what e, an event of the campaign, wrote in its
	// ledger, in order: its lines and the ranks they changed. after is
	// the campaign's state once e is applied. Most events write none.
	Entries(e Event, after State) []LedgerEntry
}

// Ledger is a campaign's record: its heroes, their standings, its books
// and the lines of its ledger. Heroes and books are numbered from 1, in the order
// they joined the campaign: hero n is Heroes[n-1], book n Books[n-1].
type Ledger struct {
	Name string
	// Ended says why the campaign ended; "" while it runs.
	Ended     string
	Heroes    []LedgerHero
	Standings []Standing // the living by rank, then the fallen
	Books     []LedgerBook
	Lines     []LedgerLine // every line of the ledger, in order
}

// LedgerHero is a hero of a campaign.
type LedgerHero struct {
	Player PlayerID
	Books  []int // the books he took the field in, by number
	// Deeds are his deeds, counted over the books recorded, in the order
	// his record lists them; Kills, Wounds (taken) and Captures (spoils
	// won, such as armor and chariots) are the ones the standings show.
	Deeds                   []DeedCount
	Kills, Wounds, Captures int
}

// DeedCount is how often a hero did one kind of deed.
type DeedCount struct {
	Deed string
	N    int
}

// Standing is a hero's place in the campaign: his rank among the living
// by points (ties share it), or his fall.
type Standing struct {
	Rank   int // among the living; 0 for the fallen
	Hero   int // his number
	Name   string
	Clan   string
	Player PlayerID
	Honor  int    // his points
	Title  string // the title his points give him
	FellIn int    // the book he fell in, 0 while he lives
}

// LedgerBook is a book of a campaign.
type LedgerBook struct {
	Ref    string // the book's name in the store
	Kind   string // what kind of book it was ("practice", "raid", "battle")
	Result string // how it ended; "" while it runs
	Closed bool
}

// LedgerLine is a line of the ledger, as the standings add it up.
type LedgerLine struct {
	Hero   int // the hero's number
	Book   int // the book it came from; 0 for the campaign's own lines
	Points int
}

// LedgerEntry is a line of a hero's ledger as his page shows it, or his
// rank changing.
type LedgerEntry struct {
	Hero int // the hero's number
	// Book is the book the line came from (0 for the campaign's own
	// lines), BookRef its name in the store, Step the event of that book
	// whose step wrote it (0 for none) and Round the book's round.
	Book    int
	BookRef string
	Step    Seq
	Round   int
	Points  int
	Reason  string
	Total   int // his points once the line is written
	// IsRank marks his rank changing to Rank, a rise when Rose is set.
	IsRank bool
	Rose   bool
	Rank   string
}
