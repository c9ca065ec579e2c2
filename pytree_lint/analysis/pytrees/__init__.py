"""What the rules ask about pytrees: registrations and their fields, the flatten/unflatten contract, where
values become aux_data or children, jitted functions and transformations, tree calls, Flax NNX classes, and
the changes the module makes to containers in place."""
