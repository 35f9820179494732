/* model.h - the face of model/: what an EBS volume and its instance should
 * deliver (ebs_model.h: the dated volume and instance tables and their
 * arithmetic) and what a volume costs (ebs_prices.h).  Facts only: no
 * measurement is read here, so every room that predicts or prices starts
 * from this one. */
#ifndef EBSBENCH_MODEL_H
#define EBSBENCH_MODEL_H

#include "model/ebs_model.h"
#include "model/ebs_prices.h"

#endif
