from .resolution import Resolution


def make_input(image):
    return (image, Resolution(*image.shape))
