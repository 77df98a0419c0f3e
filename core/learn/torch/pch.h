#pragma once
// Precompiled header of the learn library: torch headers compile slowly.
#include <torch/torch.h>
