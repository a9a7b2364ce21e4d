#include "engine/santorini/powers/powers.hpp"

namespace santorini {

const PowerRules& rules_of(PowerId id) {
    static const PowerRules none{};
    switch (id) {
        case PowerId::Aphrodite: return powers::aphrodite;
        case PowerId::Apollo: return powers::apollo;
        case PowerId::Ares: return powers::ares;
        case PowerId::Artemis: return powers::artemis;
        case PowerId::Athena: return powers::athena;
        case PowerId::Atlas: return powers::atlas;
        case PowerId::Bia: return powers::bia;
        case PowerId::Chaos: return powers::chaos;
        case PowerId::Charon: return powers::charon;
        case PowerId::Chronus: return powers::chronus;
        case PowerId::Circe: return powers::circe;
        case PowerId::Demeter: return powers::demeter;
        case PowerId::Dionysus: return powers::dionysus;
        case PowerId::Eros: return powers::eros;
        case PowerId::Hephaestus: return powers::hephaestus;
        case PowerId::Hera: return powers::hera;
        case PowerId::Hermes: return powers::hermes;
        case PowerId::Hestia: return powers::hestia;
        case PowerId::Hypnus: return powers::hypnus;
        case PowerId::Limus: return powers::limus;
        case PowerId::Medusa: return powers::medusa;
        case PowerId::Minotaur: return powers::minotaur;
        case PowerId::Morpheus: return powers::morpheus;
        case PowerId::Pan: return powers::pan;
        case PowerId::Persephone: return powers::persephone;
        case PowerId::Poseidon: return powers::poseidon;
        case PowerId::Prometheus: return powers::prometheus;
        case PowerId::Selene: return powers::selene;
        case PowerId::Triton: return powers::triton;
        case PowerId::Zeus: return powers::zeus;
        case PowerId::Aeolus: return powers::aeolus;
        case PowerId::Charybdis: return powers::charybdis;
        case PowerId::Clio: return powers::clio;
        case PowerId::EuropaTalus: return powers::europa_talus;
        case PowerId::Gaea: return powers::gaea;
        case PowerId::Graeae: return powers::graeae;
        case PowerId::Hades: return powers::hades;
        case PowerId::Harpies: return powers::harpies;
        case PowerId::Hecate: return powers::hecate;
        case PowerId::Moerae: return powers::moerae;
        case PowerId::Nemesis: return powers::nemesis;
        case PowerId::Siren: return powers::siren;
        case PowerId::Tartarus: return powers::tartarus;
        case PowerId::Terpsichore: return powers::terpsichore;
        case PowerId::Urania: return powers::urania;
        case PowerId::Achilles: return powers::achilles;
        case PowerId::Adonis: return powers::adonis;
        case PowerId::Atalanta: return powers::atalanta;
        case PowerId::Bellerophon: return powers::bellerophon;
        case PowerId::Heracles: return powers::heracles;
        case PowerId::Jason: return powers::jason;
        case PowerId::Medea: return powers::medea;
        case PowerId::Odysseus: return powers::odysseus;
        case PowerId::Polyphemus: return powers::polyphemus;
        case PowerId::Theseus: return powers::theseus;
        default: return none;
    }
}

}  // namespace santorini
