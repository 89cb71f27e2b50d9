package sgboh

import (
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// A scenario is a battle written as set-up commands, one a line: the
// map, its terrain, the two armies, their leaders and units. The same
// format is what /scenario save writes and /scenario load reads, so a
// club writes its own battles in it.
type scenario struct {
	Name   string // what /book open scenario: takes
	Title  string // the battle's name
	Help   string // one line about it
	Script string
}

func scenarioNames() []string {
	out := make([]string, len(preparedBattles))
	for i, sc := range preparedBattles {
		out[i] = sc.Name
	}
	return out
}

func findScenario(name string) *scenario {
	for i := range preparedBattles {
		if strings.EqualFold(preparedBattles[i].Name, strings.TrimSpace(name)) {
			return &preparedBattles[i]
		}
	}
	return nil
}

// engineScenarios offers the prepared battles to /scenario load as well,
// for a book opened without one.
func engineScenarios() []engine.Scenario {
	out := make([]engine.Scenario, len(preparedBattles))
	for i, sc := range preparedBattles {
		out[i] = engine.Scenario{Name: sc.Name, Help: sc.Title + ": " + sc.Help, Script: sc.Script}
	}
	return out
}

// setUp writes a battle's set-up as the commands that lay it out again,
// each unit and leader where it stands now.
func setUp(s *State) []engine.Command {
	var out []engine.Command
	cmd := func(name string, opts map[string]string) {
		out = append(out, engine.Command{Name: name, Options: opts})
	}
	if s.Cols == 0 {
		return nil
	}
	cmd("setup map", map[string]string{"size": strconv.Itoa(s.Cols) + "x" + strconv.Itoa(s.Rows)})
	for f := range s.Features.All() {
		o := map[string]string{"kind": f.Ground.String(), "where": hexList(f.Hexes), "name": f.Name}
		if f.Level > 0 {
			o["kind"], o["level"] = "hill", strconv.Itoa(f.Level)
		}
		cmd("setup terrain", o)
	}
	for _, a := range s.Armies {
		o := map[string]string{"name": a.Name, "edge": a.Edge, "withdraw": strconv.Itoa(a.Withdraw)}
		if a.First {
			o["first"] = "yes"
		}
		cmd("setup side", o)
	}
	yes := func(o map[string]string, k string, b bool) {
		if b {
			o[k] = "yes"
		}
	}
	// Wing commanders before the contingent commanders who name them; a
	// contingent commander whose wing commander has fallen is set up as a
	// leader of his own (underWing).
	for _, under := range []bool{false, true} {
		for i := range s.Leaders {
			l := &s.Leaders[i]
			if !l.In() || s.underWing(l) != under {
				continue
			}
			o := map[string]string{"id": l.ID, "name": l.Name, "side": strconv.Itoa(l.Side + 1), "at": l.Hex.String(),
				"initiative": strconv.Itoa(l.Initiative), "range": strconv.Itoa(l.Range), "move": strconv.Itoa(l.MA)}
			yes(o, "elite", l.Elite)
			yes(o, "wing", l.Wing)
			if s.underWing(l) {
				o["under"] = l.Under
			}
			cmd("setup leader", o)
		}
	}
	for i := range s.Units {
		u := &s.Units[i]
		if !u.On() {
			continue
		}
		o := map[string]string{"id": u.ID, "name": u.Name, "type": u.Type.String(), "side": strconv.Itoa(u.Side + 1), "at": u.Hex.String(),
			"facing": u.Facing.String(), "line": u.Line, "tq": strconv.Itoa(u.TQ), "size": strconv.Itoa(u.Size), "ma": strconv.Itoa(u.MA),
			"missile": u.Missile.String()}
		yes(o, "star", u.Star)
		yes(o, "cataphract", u.Cataphract)
		yes(o, "deep", u.Deep)
		cmd("setup unit", o)
	}
	return out
}

// The prepared battles; their sources are in RULINGS.md (sgboh, "Scenarios"). Edit both together.

// preparedBattles are the battles /book open rules:sgboh scenario: lays out.
var preparedBattles = []scenario{
	{Name: "plain", Title: "A skirmish on the plain", Help: "a small battle for learning: two phalanxes, hypaspists and Companions against Greek mercenaries and Persian horse",
		Script: `/setup map size:14x10
/setup terrain kind:hill where:"0704 0705 0804" name:"the low hill" level:1
/setup terrain kind:woods where:"1107 1108 1207" name:"the grove"
/setup side name:"Macedonians" edge:S withdraw:13 first:yes
/setup side name:"Persians" edge:N withdraw:10
/setup leader id:ALX name:"Alexander" side:1 at:0908 initiative:6 range:4 elite:yes
/setup leader id:DAT name:"Datames" side:2 at:0703 initiative:4 range:4
/setup unit id:PH1 name:"Pezhetairoi" type:PH side:1 at:0608 facing:NNE line:"Phalanx"
/setup unit id:PH2 name:"Pezhetairoi" type:PH side:1 at:0708 facing:NNE line:"Phalanx"
/setup unit id:HYP name:"Hypaspists" type:HI side:1 at:0808 facing:NNE line:"Hypaspists"
/setup unit id:COM name:"Companions" type:HC side:1 at:0908 facing:NNE line:"Companions" tq:8
/setup unit id:AGR name:"Agrianians" type:SK side:1 at:0507 facing:NNE line:"Skirmishers"
/setup unit id:HO1 name:"Greek mercenaries" type:HO side:2 at:0603 facing:SSW line:"Hoplites"
/setup unit id:HO2 name:"Greek mercenaries" type:HO side:2 at:0703 facing:SSW line:"Hoplites"
/setup unit id:PHC name:"Persian" type:HC side:2 at:0803 facing:SSW line:"Cavalry" tq:6
/setup unit id:BAC name:"Bactrian" type:LC side:2 at:0903 facing:SSW line:"Cavalry"
/setup unit id:ARC name:"Persian archers" type:SK side:2 at:0604 facing:SSW line:"Skirmishers" missile:bow tq:3`},
	{Name: "successors", Title: "A fight of the Successors", Help: "two like armies of Alexander's heirs, phalanx against phalanx, on ground that favours neither: a fair fight for learning",
		Script: `/setup map size:14x10
/setup terrain kind:woods where:"1107 1108 1207" name:"the east grove"
/setup terrain kind:woods where:"0404 0403 0304" name:"the west grove"
/setup side name:"Eumenes' army" edge:S withdraw:13
/setup side name:"Antigonus' army" edge:N withdraw:13
/setup leader id:EUM name:"Eumenes" side:1 at:0908 initiative:5 range:4
/setup leader id:ANT name:"Antigonus" side:2 at:0603 initiative:5 range:4
/setup unit id:EP1 name:"Pezhetairoi" type:PH side:1 at:0608 facing:NNE line:"Phalanx"
/setup unit id:EP2 name:"Pezhetairoi" type:PH side:1 at:0708 facing:NNE line:"Phalanx"
/setup unit id:EHY name:"Silver Shields" type:HI side:1 at:0808 facing:NNE line:"Hypaspists"
/setup unit id:EHC name:"Companions" type:HC side:1 at:0908 facing:NNE line:"Companions"
/setup unit id:ESK name:"Thracians" type:SK side:1 at:0507 facing:NNE line:"Skirmishers"
/setup unit id:AP1 name:"Pezhetairoi" type:PH side:2 at:0903 facing:SSW line:"Phalanx"
/setup unit id:AP2 name:"Pezhetairoi" type:PH side:2 at:0803 facing:SSW line:"Phalanx"
/setup unit id:AHY name:"Hypaspists" type:HI side:2 at:0703 facing:SSW line:"Hypaspists"
/setup unit id:AHC name:"Companions" type:HC side:2 at:0603 facing:SSW line:"Companions"
/setup unit id:ASK name:"Thracians" type:SK side:2 at:1004 facing:SSW line:"Skirmishers"`},
	{Name: "granicus", Title: "The Granicus, 334 BC", Help: "the Persian horse holds the steep north bank of the river; the Greek mercenaries wait on the rise behind",
		Script: `/setup map size:22x12
/setup terrain kind:river where:"0107 0207 0307 0407 0507 0607 0707 0807 0907 1007 1107 1207 1307 1407 1507 1607 1707 1807 1907 2007 2107 2207" name:"the Granicus"
/setup terrain kind:bank where:"0106 0206 0306 0406 0506 0606 0706 0806 0906 1006 1106 1206 1306 1406 1506 1606 1706 1806 1906 2006 2106 2206" name:"the steep north bank"
/setup terrain kind:hill where:"0901 0902 1001 1002 1101 1102 1201 1202 1301 1302 1401 1402" name:"the rise" level:1
/setup side name:"Macedonians" edge:S withdraw:51 first:yes
/setup side name:"Persians" edge:N withdraw:46
/setup leader id:ALX name:"Alexander" side:1 at:1509 initiative:7 range:6 elite:yes wing:yes
/setup leader id:PAR name:"Parmenio" side:1 at:0409 initiative:5 range:5 wing:yes
/setup leader id:ARS name:"Arsites" side:2 at:0905 initiative:4 range:5
/setup leader id:SPI name:"Spithridates" side:2 at:1405 initiative:4 range:4
/setup leader id:MEM name:"Memnon" side:2 at:1102 initiative:5 range:3
/setup leader id:CRA name:"Craterus" side:1 at:0709 initiative:4 range:3 under:PAR
/setup leader id:NIC name:"Nicanor" side:1 at:1209 initiative:4 range:2 under:ALX
/setup unit id:TH1 name:"Thessalian" type:HC side:1 at:0309 facing:NNE line:"Thessalian HC"
/setup unit id:TH2 name:"Thessalian" type:HC side:1 at:0409 facing:NNE line:"Thessalian HC"
/setup unit id:GRC name:"Allied Greek" type:HC side:1 at:0509 facing:NNE line:"Thessalian HC" tq:6
/setup unit id:PH1 name:"Pezhetairoi" type:PH side:1 at:0609 facing:NNE line:"Phalanx"
/setup unit id:PH2 name:"Pezhetairoi" type:PH side:1 at:0709 facing:NNE line:"Phalanx"
/setup unit id:PH3 name:"Pezhetairoi" type:PH side:1 at:0809 facing:NNE line:"Phalanx"
/setup unit id:PH4 name:"Pezhetairoi" type:PH side:1 at:0909 facing:NNE line:"Phalanx"
/setup unit id:PH5 name:"Pezhetairoi" type:PH side:1 at:1009 facing:NNE line:"Phalanx"
/setup unit id:PH6 name:"Pezhetairoi" type:PH side:1 at:1109 facing:NNE line:"Phalanx"
/setup unit id:HY1 name:"Hypaspists" type:HI side:1 at:1209 facing:NNE line:"Hypaspists" tq:8
/setup unit id:HY2 name:"Hypaspists" type:HI side:1 at:1309 facing:NNE line:"Hypaspists" tq:8
/setup unit id:CO1 name:"Companions" type:HC side:1 at:1409 facing:NNE line:"Companion HC" tq:8
/setup unit id:CO2 name:"Companions" type:HC side:1 at:1509 facing:NNE line:"Companion HC" tq:8
/setup unit id:CO3 name:"Companions" type:HC side:1 at:1609 facing:NNE line:"Companion HC" tq:8
/setup unit id:PRO name:"Prodromoi" type:LN side:1 at:1709 facing:NNE line:"LC and/or LN"
/setup unit id:PAE name:"Paeonian" type:LC side:1 at:1809 facing:NNE line:"LC and/or LN"
/setup unit id:AGR name:"Agrianians" type:SK side:1 at:1910 facing:NNE line:"SK (any type)" tq:5
/setup unit id:CRE name:"Cretan archers" type:SK side:1 at:1310 facing:NNE line:"SK (any type)" missile:bow
/setup unit id:PT1 name:"Peltasts" type:LP side:1 at:0810 facing:NNE line:"Peltasts"
/setup unit id:C01 name:"Hyrcanian" type:HC side:2 at:0405 facing:SSW line:"Cavalry" tq:6
/setup unit id:C02 name:"Hyrcanian" type:HC side:2 at:0505 facing:SSW line:"Cavalry" tq:6
/setup unit id:C03 name:"Median" type:HC side:2 at:0605 facing:SSW line:"Cavalry" tq:6
/setup unit id:C04 name:"Median" type:HC side:2 at:0705 facing:SSW line:"Cavalry" tq:6
/setup unit id:C05 name:"Persian" type:HC side:2 at:0805 facing:SSW line:"Cavalry"
/setup unit id:C06 name:"Persian" type:HC side:2 at:0905 facing:SSW line:"Cavalry"
/setup unit id:C07 name:"Persian" type:HC side:2 at:1005 facing:SSW line:"Cavalry"
/setup unit id:C08 name:"Persian" type:HC side:2 at:1105 facing:SSW line:"Cavalry"
/setup unit id:C09 name:"Paphlagonian" type:HC side:2 at:1205 facing:SSW line:"Cavalry" tq:6
/setup unit id:C10 name:"Bactrian" type:LC side:2 at:1305 facing:SSW line:"Cavalry"
/setup unit id:C11 name:"Bactrian" type:LC side:2 at:1405 facing:SSW line:"Cavalry"
/setup unit id:C12 name:"Cappadocian" type:HC side:2 at:1505 facing:SSW line:"Cavalry" tq:6
/setup unit id:C13 name:"Cappadocian" type:HC side:2 at:1605 facing:SSW line:"Cavalry" tq:6
/setup unit id:HO1 name:"Greek mercenaries" type:HO side:2 at:0902 facing:SSW line:"HO/HI and/or Peltasts"
/setup unit id:HO2 name:"Greek mercenaries" type:HO side:2 at:1002 facing:SSW line:"HO/HI and/or Peltasts"
/setup unit id:HO3 name:"Greek mercenaries" type:HO side:2 at:1102 facing:SSW line:"HO/HI and/or Peltasts"
/setup unit id:HO4 name:"Greek mercenaries" type:HO side:2 at:1202 facing:SSW line:"HO/HI and/or Peltasts"
/setup unit id:HO5 name:"Greek mercenaries" type:HO side:2 at:1302 facing:SSW line:"HO/HI and/or Peltasts"
/setup unit id:LV1 name:"Persian levy" type:LI side:2 at:0703 facing:SSW line:"Levy LI" tq:3
/setup unit id:LV2 name:"Persian levy" type:LI side:2 at:1503 facing:SSW line:"Levy LI" tq:3`},
	{Name: "issus", Title: "Issus, 333 BC", Help: "the Pinarus between the sea and the hills; Darius behind his mercenaries and the stockaded bank, his horse massed by the shore",
		Script: `/setup map size:22x12
/setup terrain kind:stream where:"0106 0206 0306 0406 0506 0606 0706 0806 0906 1006 1106 1206 1306 1406 1506 1606 1706 1806 1906 2006 2106 2206" name:"the Pinarus"
/setup terrain kind:abatis where:"1005 1105 1205" name:"the stockade"
/setup terrain kind:marsh where:"0101 0102 0103 0104 0105 0107 0108 0109 0110 0111 0112" name:"the shore"
/setup terrain kind:hill where:"2002 2003 2004 2005 2006 2007 2008 2009 2102 2103 2104 2105 2106 2107 2108 2109 2202 2203 2204 2205 2206 2207 2208 2209" name:"the foothills" level:1
/setup terrain kind:rocky where:"2104 2105" name:"the crags"
/setup side name:"Macedonians" edge:S withdraw:54 first:yes
/setup side name:"Persians" edge:N withdraw:41
/setup leader id:ALX name:"Alexander" side:1 at:1508 initiative:7 range:6 elite:yes wing:yes
/setup leader id:PAR name:"Parmenio" side:1 at:0408 initiative:5 range:5 wing:yes
/setup leader id:DAR name:"Darius" side:2 at:1103 initiative:2 range:4
/setup leader id:NAB name:"Nabarzanes" side:2 at:0404 initiative:4 range:4
/setup leader id:THY name:"Thymondas" side:2 at:1104 initiative:5 range:3
/setup leader id:ARM name:"Aristomedes" side:2 at:2004 initiative:3 range:3
/setup leader id:CRA name:"Craterus" side:1 at:0708 initiative:4 range:3 under:PAR
/setup leader id:NIC name:"Nicanor" side:1 at:1208 initiative:4 range:2 under:ALX
/setup unit id:TH1 name:"Thessalian" type:HC side:1 at:0208 facing:NNE line:"Thessalian HC"
/setup unit id:TH2 name:"Thessalian" type:HC side:1 at:0308 facing:NNE line:"Thessalian HC"
/setup unit id:TH3 name:"Thessalian" type:HC side:1 at:0408 facing:NNE line:"Thessalian HC"
/setup unit id:CRE name:"Cretan archers" type:SK side:1 at:0508 facing:NNE line:"SK any type" missile:bow
/setup unit id:PH1 name:"Pezhetairoi" type:PH side:1 at:0608 facing:NNE line:"Phalanx"
/setup unit id:PH2 name:"Pezhetairoi" type:PH side:1 at:0708 facing:NNE line:"Phalanx"
/setup unit id:PH3 name:"Pezhetairoi" type:PH side:1 at:0808 facing:NNE line:"Phalanx"
/setup unit id:PH4 name:"Pezhetairoi" type:PH side:1 at:0908 facing:NNE line:"Phalanx"
/setup unit id:PH5 name:"Pezhetairoi" type:PH side:1 at:1008 facing:NNE line:"Phalanx"
/setup unit id:PH6 name:"Pezhetairoi" type:PH side:1 at:1108 facing:NNE line:"Phalanx"
/setup unit id:HY1 name:"Hypaspists" type:HI side:1 at:1208 facing:NNE line:"Hypaspists" tq:8
/setup unit id:HY2 name:"Hypaspists" type:HI side:1 at:1308 facing:NNE line:"Hypaspists" tq:8
/setup unit id:CO1 name:"Companions" type:HC side:1 at:1408 facing:NNE line:"Companion HC" tq:8
/setup unit id:CO2 name:"Companions" type:HC side:1 at:1508 facing:NNE line:"Companion HC" tq:8
/setup unit id:CO3 name:"Companions" type:HC side:1 at:1608 facing:NNE line:"Companion HC" tq:8
/setup unit id:PRO name:"Prodromoi" type:LN side:1 at:1708 facing:NNE line:"Companion HC"
/setup unit id:PAE name:"Paeonian" type:LC side:1 at:1808 facing:NNE line:"Companion HC"
/setup unit id:AGR name:"Agrianians" type:SK side:1 at:1908 facing:NNE line:"SK any type" tq:5
/setup unit id:THR name:"Thracian" type:LP side:1 at:0709 facing:NNE line:"Thracian Peltasts"
/setup unit id:MER name:"Mercenary" type:LP side:1 at:1009 facing:NNE line:"Mercenary Peltasts"
/setup unit id:PC1 name:"Persian" type:HC side:2 at:0204 facing:SSW line:"HC" tq:6
/setup unit id:PC2 name:"Persian" type:HC side:2 at:0304 facing:SSW line:"HC" tq:6
/setup unit id:PC3 name:"Persian" type:HC side:2 at:0404 facing:SSW line:"HC" tq:6
/setup unit id:PC4 name:"Persian" type:HC side:2 at:0504 facing:SSW line:"HC" tq:6
/setup unit id:PLC name:"Persian" type:LC side:2 at:0604 facing:SSW line:"LC"
/setup unit id:CA1 name:"Cardaces" type:HI side:2 at:0704 facing:SSW line:"Cardaces HO/HI" tq:5
/setup unit id:CA2 name:"Cardaces" type:HI side:2 at:0804 facing:SSW line:"Cardaces HO/HI" tq:5
/setup unit id:HO1 name:"Greek mercenaries" type:HO side:2 at:0904 facing:SSW line:"HO/HI"
/setup unit id:HO2 name:"Greek mercenaries" type:HO side:2 at:1004 facing:SSW line:"HO/HI"
/setup unit id:HO3 name:"Greek mercenaries" type:HO side:2 at:1104 facing:SSW line:"HO/HI"
/setup unit id:HO4 name:"Greek mercenaries" type:HO side:2 at:1204 facing:SSW line:"HO/HI"
/setup unit id:HO5 name:"Greek mercenaries" type:HO side:2 at:1304 facing:SSW line:"HO/HI"
/setup unit id:CA3 name:"Cardaces" type:HI side:2 at:1404 facing:SSW line:"Cardaces HO/HI" tq:5
/setup unit id:CA4 name:"Cardaces" type:HI side:2 at:1504 facing:SSW line:"Cardaces HO/HI" tq:5
/setup unit id:KIN name:"Kinsmen" type:HC side:2 at:1103 facing:SSW line:"Darius' Bodyguard"
/setup unit id:DCH name:"Darius' chariot" type:CH side:2 at:1203 facing:SSW line:"Darius' Bodyguard"
/setup unit id:AR1 name:"Persian archers" type:SK side:2 at:0905 facing:SSW line:"SK any type" missile:bow tq:3
/setup unit id:AR2 name:"Persian archers" type:SK side:2 at:1305 facing:SSW line:"SK any type" missile:bow tq:3
/setup unit id:LV1 name:"Persian levy" type:LI side:2 at:1904 facing:SSW line:"Levy LI" tq:3
/setup unit id:LV2 name:"Persian levy" type:LI side:2 at:2005 facing:SSW line:"Levy LI" tq:3`},
	{Name: "gaugamela", Title: "Gaugamela, 331 BC", Help: "the levelled plain: scythed chariots and elephants before the Great King, Bactrian and Scythian horse on his left",
		Script: `/setup map size:26x14
/setup terrain kind:hill where:"1201 1301 1401 1501" name:"the camp rise" level:1
/setup terrain kind:rocky where:"2411 2412 2511" name:"the broken ground"
/setup side name:"Macedonians" edge:S withdraw:61 first:yes
/setup side name:"Persians" edge:N withdraw:55
/setup leader id:ALX name:"Alexander" side:1 at:1610 initiative:7 range:6 elite:yes wing:yes
/setup leader id:PAR name:"Parmenio" side:1 at:0510 initiative:5 range:5 wing:yes
/setup leader id:DAR name:"Darius" side:2 at:1204 initiative:2 range:5
/setup leader id:BES name:"Bessus" side:2 at:2004 initiative:4 range:5
/setup leader id:MAZ name:"Mazaeus" side:2 at:0504 initiative:5 range:5
/setup leader id:CRA name:"Craterus" side:1 at:0810 initiative:4 range:3 under:PAR
/setup leader id:NIC name:"Nicanor" side:1 at:1310 initiative:4 range:2 under:ALX
/setup unit id:GRC name:"Allied Greek" type:HC side:1 at:0310 facing:NNE line:"Thessalian HC" tq:6
/setup unit id:TH1 name:"Thessalian" type:HC side:1 at:0410 facing:NNE line:"Thessalian HC"
/setup unit id:TH2 name:"Thessalian" type:HC side:1 at:0510 facing:NNE line:"Thessalian HC"
/setup unit id:TH3 name:"Thessalian" type:HC side:1 at:0610 facing:NNE line:"Thessalian HC"
/setup unit id:PH1 name:"Pezhetairoi" type:PH side:1 at:0710 facing:NNE line:"Phalanx"
/setup unit id:PH2 name:"Pezhetairoi" type:PH side:1 at:0810 facing:NNE line:"Phalanx"
/setup unit id:PH3 name:"Pezhetairoi" type:PH side:1 at:0910 facing:NNE line:"Phalanx"
/setup unit id:PH4 name:"Pezhetairoi" type:PH side:1 at:1010 facing:NNE line:"Phalanx"
/setup unit id:PH5 name:"Pezhetairoi" type:PH side:1 at:1110 facing:NNE line:"Phalanx"
/setup unit id:PH6 name:"Pezhetairoi" type:PH side:1 at:1210 facing:NNE line:"Phalanx"
/setup unit id:HY1 name:"Hypaspists" type:HI side:1 at:1310 facing:NNE line:"Hypaspists" tq:8
/setup unit id:HY2 name:"Hypaspists" type:HI side:1 at:1410 facing:NNE line:"Hypaspists" tq:8
/setup unit id:CO1 name:"Companions" type:HC side:1 at:1510 facing:NNE line:"Companion HC" tq:8
/setup unit id:CO2 name:"Companions" type:HC side:1 at:1610 facing:NNE line:"Companion HC" tq:8
/setup unit id:CO3 name:"Companions" type:HC side:1 at:1710 facing:NNE line:"Companion HC" tq:8
/setup unit id:AGR name:"Agrianians" type:SK side:1 at:1810 facing:NNE line:"SK any type" tq:5
/setup unit id:CRE name:"Cretan archers" type:SK side:1 at:1910 facing:NNE line:"SK any type" missile:bow
/setup unit id:PRO name:"Prodromoi" type:LN side:1 at:2010 facing:NNE line:"LC and/or LN"
/setup unit id:PAE name:"Paeonian" type:LC side:1 at:2110 facing:NNE line:"LC and/or LN"
/setup unit id:MHC name:"Mercenary" type:HC side:1 at:2210 facing:NNE line:"LC and/or LN" tq:6
/setup unit id:THR name:"Thracian" type:LP side:1 at:0912 facing:NNE line:"Thracian Peltasts"
/setup unit id:MER name:"Mercenary" type:LP side:1 at:1112 facing:NNE line:"Mercenary Peltasts"
/setup unit id:LI1 name:"Greek light infantry" type:LI side:1 at:1312 facing:NNE line:"LI"
/setup unit id:PAR1 name:"Parthian" type:LC side:2 at:0204 facing:SSW line:"LC and/or LN"
/setup unit id:RH1 name:"Armenian" type:HC side:2 at:0304 facing:SSW line:"Any other HC" tq:6
/setup unit id:RH2 name:"Armenian" type:HC side:2 at:0404 facing:SSW line:"Any other HC" tq:6
/setup unit id:RH3 name:"Cappadocian" type:HC side:2 at:0504 facing:SSW line:"Any other HC" tq:6
/setup unit id:RH4 name:"Persian" type:HC side:2 at:0604 facing:SSW line:"Any other HC" tq:6
/setup unit id:RH5 name:"Persian" type:HC side:2 at:0704 facing:SSW line:"Any other HC" tq:6
/setup unit id:HO1 name:"Greek mercenaries" type:HO side:2 at:1004 facing:SSW line:"HO/HI and/or MI"
/setup unit id:AP1 name:"Apple-bearers" type:HI side:2 at:1104 facing:SSW line:"HO/HI and/or MI"
/setup unit id:KIN name:"Kinsmen" type:HC side:2 at:1204 facing:SSW line:"Kinsmen HC and/or Persian HC"
/setup unit id:AP2 name:"Apple-bearers" type:HI side:2 at:1304 facing:SSW line:"HO/HI and/or MI"
/setup unit id:HO2 name:"Greek mercenaries" type:HO side:2 at:1404 facing:SSW line:"HO/HI and/or MI"
/setup unit id:LV1 name:"Persian levy" type:LI side:2 at:0903 facing:SSW line:"HO/HI and/or MI" tq:3
/setup unit id:LV2 name:"Persian levy" type:LI side:2 at:1003 facing:SSW line:"HO/HI and/or MI" tq:3
/setup unit id:LV3 name:"Persian levy" type:LI side:2 at:1303 facing:SSW line:"HO/HI and/or MI" tq:3
/setup unit id:LV4 name:"Persian levy" type:LI side:2 at:1403 facing:SSW line:"HO/HI and/or MI" tq:3
/setup unit id:LV5 name:"Persian levy" type:LI side:2 at:1503 facing:SSW line:"HO/HI and/or MI" tq:3
/setup unit id:EL1 name:"Indian" type:EL side:2 at:1105 facing:SSW line:"Elephants" tq:4
/setup unit id:EL2 name:"Indian" type:EL side:2 at:1305 facing:SSW line:"Elephants" tq:4
/setup unit id:SC1 name:"Scythed" type:CH side:2 at:0606 facing:SSW line:"Chariots" tq:3
/setup unit id:SC2 name:"Scythed" type:CH side:2 at:0906 facing:SSW line:"Chariots" tq:3
/setup unit id:SC3 name:"Scythed" type:CH side:2 at:1506 facing:SSW line:"Chariots" tq:3
/setup unit id:SC4 name:"Scythed" type:CH side:2 at:1806 facing:SSW line:"Chariots" tq:3
/setup unit id:SCY name:"Scythian" type:LC side:2 at:1804 facing:SSW line:"Scythian Cavalry" tq:6
/setup unit id:SCH name:"Scythian" type:HC side:2 at:2204 facing:SSW line:"Scythian Cavalry" cataphract:yes
/setup unit id:BA1 name:"Bactrian" type:HC side:2 at:1904 facing:SSW line:"Bactrian HC" tq:6
/setup unit id:BA2 name:"Bactrian" type:HC side:2 at:2004 facing:SSW line:"Bactrian HC" tq:6
/setup unit id:BA3 name:"Bactrian" type:HC side:2 at:2104 facing:SSW line:"Bactrian HC" tq:6
/setup unit id:AR1 name:"Persian archers" type:SK side:2 at:1205 facing:SSW line:"SK (any type)" missile:bow tq:3`},
}
