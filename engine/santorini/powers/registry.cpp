#include "engine/santorini/powers/powers.hpp"

namespace santorini {

const PowerRules& rules_of(PowerId id) {
    static const PowerRules none{};
    switch (id) {
        case PowerId::Apollo:
            return powers::apollo;
        case PowerId::Artemis:
            return powers::artemis;
        case PowerId::Athena:
            return powers::athena;
        case PowerId::Atlas:
            return powers::atlas;
        case PowerId::Demeter:
            return powers::demeter;
        case PowerId::Hephaestus:
            return powers::hephaestus;
        case PowerId::Hermes:
            return powers::hermes;
        case PowerId::Minotaur:
            return powers::minotaur;
        case PowerId::Pan:
            return powers::pan;
        case PowerId::Prometheus:
            return powers::prometheus;
        case PowerId::Hypnus:
            return powers::hypnus;
        case PowerId::Limus:
            return powers::limus;
        case PowerId::Medusa:
            return powers::medusa;
        case PowerId::Persephone:
            return powers::persephone;
        case PowerId::Poseidon:
            return powers::poseidon;
        case PowerId::Triton:
            return powers::triton;
        case PowerId::Zeus:
            return powers::zeus;
        default:
            return none;
    }
}

}  // namespace santorini
