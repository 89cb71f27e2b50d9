package gwab

import "fmt"

// The Herald's voice. The titles of the ranks are the rules' own (4.5);
// the lines that greet a Hero rising or falling are ours.

// rankTitle is the rank and title of a class (4.5).
func rankTitle(class int) string {
	switch class {
	case 5:
		return "Homeric Hero, Basileus"
	case 4:
		return "Class 4 Hero, Champion"
	case 3:
		return "Class 3 Hero, Esquire"
	case 2:
		return "Class 2 Hero, Leader of Men"
	}
	return "Class 1 Hero, Lucky Pierre Hetairoi"
}

// risingLines and fallingLines greet a Hero arriving at a class from
// below and from above.
var risingLines = map[int]string{
	2: "Men now fall in behind %s when the horns sound.",
	3: "The long telling of the war now spares a verse for %s.",
	4: "Potters from Argos to Troy are painting %s on their best cups.",
	5: "Every bard in Hellas will sing of %s until the last string breaks.",
}

var fallingLines = map[int]string{
	1: "The men of the host no longer step aside when %s passes.",
	2: "The verse about %s is quietly dropped from the evening's song.",
	3: "The potters scrape %s off the cups they had not yet fired.",
	4: "The bards still sing of %s, but a little faster now.",
}

func rankAnnouncement(b RankChanged) string {
	verb, lines := "rises", risingLines
	if b.To < b.From {
		verb, lines = "falls", fallingLines
	}
	line := fmt.Sprintf("The Herald proclaims: %s %s to %s, with %d honor.", b.Name, verb, rankTitle(b.To), b.Total)
	if l, ok := lines[b.To]; ok {
		line += " " + fmt.Sprintf(l, b.Name)
	}
	return line
}
