#pragma once
// Internal: the hook tables of the 55 powers, one per file in this folder.

#include "engine/santorini/power_rules.hpp"

namespace santorini::powers {

extern const PowerRules aphrodite;
extern const PowerRules apollo;
extern const PowerRules ares;
extern const PowerRules artemis;
extern const PowerRules athena;
extern const PowerRules atlas;
extern const PowerRules bia;
extern const PowerRules charon;
extern const PowerRules demeter;
extern const PowerRules eros;
extern const PowerRules hephaestus;
extern const PowerRules hera;
extern const PowerRules hermes;
extern const PowerRules hestia;
extern const PowerRules minotaur;
extern const PowerRules pan;
extern const PowerRules prometheus;
extern const PowerRules chaos;
extern const PowerRules chronus;
extern const PowerRules circe;
extern const PowerRules dionysus;
extern const PowerRules morpheus;
extern const PowerRules selene;
// Golden Fleece gods (31-45): each may also be the one Golden Fleece power.
extern const PowerRules aeolus;
extern const PowerRules charybdis;
extern const PowerRules clio;
extern const PowerRules europa_talus;
extern const PowerRules gaea;
extern const PowerRules graeae;
extern const PowerRules hades;
extern const PowerRules harpies;
extern const PowerRules hecate;
extern const PowerRules moerae;
extern const PowerRules nemesis;
extern const PowerRules siren;
extern const PowerRules tartarus;
extern const PowerRules terpsichore;
extern const PowerRules urania;
extern const PowerRules hypnus;
extern const PowerRules limus;
extern const PowerRules medusa;
extern const PowerRules persephone;
extern const PowerRules poseidon;
extern const PowerRules triton;
extern const PowerRules zeus;
// Heroes (46-55): once per game (hero.hpp).
extern const PowerRules achilles;
extern const PowerRules adonis;
extern const PowerRules atalanta;
extern const PowerRules bellerophon;
extern const PowerRules heracles;
extern const PowerRules jason;
extern const PowerRules medea;
extern const PowerRules odysseus;
extern const PowerRules polyphemus;
extern const PowerRules theseus;

}  // namespace santorini::powers
